package dev.loommcp.internal.session;

import dev.loommcp.ElicitationHandler;
import dev.loommcp.NotificationListener;
import dev.loommcp.OutputSchemaValidation;
import dev.loommcp.RootsHandler;
import dev.loommcp.SamplingHandler;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.ElicitationCapability;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.schema.RootsCapability;
import dev.loommcp.schema.SamplingCapability;
import dev.loommcp.spi.McpTransport;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Everything {@code McpClient.Builder} collected, validated, as the session receives it. Immutable.
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
 * @param notificationListener        gets every notification but progress and cancellation, or {@code null}
 * @param toolListChangedListener     told of {@code notifications/tools/list_changed}, or {@code null}
 * @param loggingListener             gets {@code notifications/message}, or {@code null}
 * @param sessionRestartedListener    told when the transport replaced its session, or {@code null}
 * @param outputSchemaValidation      what a failed {@code structuredContent} check does
 * @param maxListPages                the most pages a complete listing reads
 * @param maxConcurrentServerRequests the most server-request handlers running at once
 * @param keepNotifications           whether notifications are kept for draining
 * @param notificationQueueCapacity   the most notifications kept for draining
 * @param notificationQueueBytes      the most bytes of notifications kept for draining
 * @param listenerQueueCapacity       the most events waiting for the listeners (and per call's progress queue)
 * @param listenerQueueBytes          the most bytes of events waiting for the listeners (likewise)
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
        NotificationListener notificationListener,
        Runnable toolListChangedListener,
        Consumer<LoggingMessageNotification> loggingListener,
        Runnable sessionRestartedListener,
        OutputSchemaValidation outputSchemaValidation,
        int maxListPages,
        int maxConcurrentServerRequests,
        boolean keepNotifications,
        int notificationQueueCapacity,
        long notificationQueueBytes,
        int listenerQueueCapacity,
        long listenerQueueBytes) {

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
