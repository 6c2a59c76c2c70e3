package dev.loommcp.internal.session.config;

import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.internal.session.era.EraVerdictFile;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.ElicitationCapability;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.RootsCapability;
import dev.loommcp.schema.SamplingCapability;
import dev.loommcp.spi.McpTransport;
import java.time.Duration;
import java.util.Map;

/**
 * Everything {@code McpClient.Builder} collected, validated, as the session receives it: an immutable snapshot made
 * by {@code McpClient.Builder}, which holds each setting's default, check and documentation.
 *
 * @param transport                   the transport the session owns
 * @param clientInfo                  the identity sent in {@code initialize}
 * @param requestTimeout              the default timeout of a call that sets neither timeout nor deadline
 * @param connectTimeout              the default bound of {@code connect()}
 * @param elicitationHandler          answers {@code elicitation/create}, or {@code null}
 * @param elicitationUrlMode          whether URL-mode elicitation is declared
 * @param applyElicitationDefaults    whether accepted form elicitations get schema defaults filled in
 * @param samplingHandler             answers {@code sampling/createMessage}, or {@code null}
 * @param rootsHandler                answers {@code roots/list}, or {@code null}
 * @param listener                    gets notifications, tool-list changes, log messages, restarts; or {@code null}
 * @param eventListener               observes requests and the transport's close, or {@code null}
 * @param outputSchemaValidation      what a failed {@code structuredContent} check does
 * @param maxListPages                the most pages a complete listing reads
 * @param maxConcurrentServerRequests the most server-request handlers running at once
 * @param keepNotifications           whether notifications are kept for draining
 * @param notificationQueueCapacity   the most notifications kept for draining
 * @param notificationQueueBytes      the most bytes of notifications kept for draining
 * @param listenerQueueCapacity       the most events waiting for the listeners (and per call's progress queue)
 * @param listenerQueueBytes          the most bytes of events waiting for the listeners (likewise)
 * @param protocolMode                how the era is picked
 * @param probeTimeout                how long the AUTO era probe waits for an answer
 * @param maxInputRounds              the most {@code input_required} rounds one multi round-trip request may take
 * @param taskSupport                 the installed task driver, or {@code null} (no tasks)
 * @param resultCacheEntries          the most results the modern era's result cache holds
 * @param resultCacheBytes            the most bytes (estimated as JSON text) the modern era's result cache holds
 * @param eraVerdictFile              where AUTO keeps its era verdicts across JVMs, or {@code null} (memory only)
 * @param resilience                  the rate limit, circuit breaker, budget and retry of the client's requests
 * @param interceptors                the interceptors of outgoing requests, outermost first (empty: none)
 * @param serverRequestInterceptors   the interceptors of server requests, outermost first (empty: none)
 * @param serverName                  the name the user gave the server ({@code McpClient.Builder.serverName}), or
 *                                    {@code null}: messages of the policies and interceptors name the server by it
 */
public record SessionConfig(
        McpTransport transport,
        Implementation clientInfo,
        Duration requestTimeout,
        Duration connectTimeout,
        ElicitationHandler elicitationHandler,
        boolean elicitationUrlMode,
        boolean applyElicitationDefaults,
        SamplingHandler samplingHandler,
        RootsHandler rootsHandler,
        McpClientListener listener,
        McpEventListener eventListener,
        OutputSchemaValidation outputSchemaValidation,
        int maxListPages,
        int maxConcurrentServerRequests,
        boolean keepNotifications,
        int notificationQueueCapacity,
        long notificationQueueBytes,
        int listenerQueueCapacity,
        long listenerQueueBytes,
        ProtocolMode protocolMode,
        Duration probeTimeout,
        int maxInputRounds,
        dev.loommcp.spi.TaskSupport taskSupport,
        int resultCacheEntries,
        long resultCacheBytes,
        EraVerdictFile eraVerdictFile,
        dev.loommcp.policy.ResiliencePolicy resilience,
        java.util.List<dev.loommcp.intercept.McpInterceptor> interceptors,
        java.util.List<dev.loommcp.intercept.ServerRequestInterceptor> serverRequestInterceptors,
        String serverName) {

    /**
     * Returns the capabilities the client declares: {@code elicitation}, {@code sampling} and {@code roots} only when
     * the matching handler is set.
     *
     * @return the capabilities
     */
    public ClientCapabilities clientCapabilities() {
        ElicitationCapability elicitation = elicitationHandler == null ? null
                : new ElicitationCapability(Map.of(), elicitationUrlMode ? Map.of() : null);
        SamplingCapability sampling = samplingHandler == null ? null : new SamplingCapability(null, null);
        RootsCapability roots = rootsHandler == null ? null : new RootsCapability(true);
        return new ClientCapabilities(null, roots, sampling, elicitation, null, null);
    }
}
