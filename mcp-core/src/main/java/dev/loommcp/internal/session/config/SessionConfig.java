package dev.loommcp.internal.session.config;

import dev.loommcp.McpClientBuilder;
import dev.loommcp.ElicitationHandler;
import dev.loommcp.McpClientListener;
import dev.loommcp.McpEventListener;
import dev.loommcp.OutputSchemaValidation;
import dev.loommcp.ProtocolMode;
import dev.loommcp.RootsHandler;
import dev.loommcp.SamplingHandler;
import dev.loommcp.internal.session.era.EraVerdictFile;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.ElicitationCapability;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.RootsCapability;
import dev.loommcp.schema.SamplingCapability;
import dev.loommcp.spi.McpTransport;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything {@code McpClientBuilder} collected, validated, as the session receives it. Immutable; built with
 * {@link Builder}, which holds the defaults and the checks ({@code McpClientBuilder} documents them).
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
        EraVerdictFile eraVerdictFile) {

    /** The default of {@link #maxConcurrentServerRequests()}. */
    public static final int DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS = 64;
    /** The default of {@link #probeTimeout()}. */
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(3);
    /** The default of {@link #maxInputRounds()}. */
    public static final int DEFAULT_MAX_INPUT_ROUNDS = 10;
    /** The default of {@link #resultCacheEntries()}. */
    public static final int DEFAULT_RESULT_CACHE_ENTRIES = 1024;
    /** The default of {@link #resultCacheBytes()}: 32 MiB. */
    public static final long DEFAULT_RESULT_CACHE_BYTES = 32L << 20;

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

    /**
     * Collects and checks the settings of {@code McpClientBuilder}, whose methods delegate here one to one. Not
     * thread-safe.
     */
    public static final class Builder {
        private final McpTransport transport;
        private Implementation clientInfo = Implementation.of("loom-mcp", "0.1.0");
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Duration connectTimeout = Duration.ofSeconds(30);
        private ElicitationHandler elicitationHandler;
        private boolean elicitationUrlMode = true;
        private boolean applyElicitationDefaults;
        private SamplingHandler samplingHandler;
        private RootsHandler rootsHandler;
        private McpClientListener listener;
        private McpEventListener eventListener;
        private OutputSchemaValidation outputSchemaValidation = OutputSchemaValidation.WARN;
        private int maxListPages = 1000;
        private int notificationQueueCapacity = 1024;
        private int maxConcurrentServerRequests = DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS;
        private long notificationQueueBytes = 16L << 20;
        private boolean keepNotifications;
        private int listenerQueueCapacity = 65_536;
        private long listenerQueueBytes = 32L << 20;
        private ProtocolMode protocolMode = ProtocolMode.AUTO;
        private Duration probeTimeout = DEFAULT_PROBE_TIMEOUT;
        private int maxInputRounds = DEFAULT_MAX_INPUT_ROUNDS;
        private dev.loommcp.spi.TaskSupport taskSupport;
        private int resultCacheEntries = DEFAULT_RESULT_CACHE_ENTRIES;
        private long resultCacheBytes = DEFAULT_RESULT_CACHE_BYTES;
        private EraVerdictFile eraVerdictFile;

        /**
         * Starts a configuration with the defaults.
         *
         * @param transport the transport
         * @throws NullPointerException if {@code transport} is {@code null}
         */
        public Builder(McpTransport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
        }

        /**
         * Sets the client identity; {@code null} is refused.
         *
         * @param info the setting, as {@code McpClientBuilder} documents it
         */
        public void clientInfo(Implementation info) {
            this.clientInfo = Objects.requireNonNull(info, "info");
        }

        /**
         * Sets the default request timeout; positive.
         *
         * @param timeout the setting, as {@code McpClientBuilder} documents it
         */
        public void requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
        }

        /**
         * Sets the default connect bound; positive.
         *
         * @param timeout the setting, as {@code McpClientBuilder} documents it
         */
        public void connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
        }

        /**
         * Sets the elicitation handler and whether URL mode is declared; {@code null} is refused.
         *
         * @param handler the setting, as {@code McpClientBuilder} documents it
         * @param urlMode the setting, as {@code McpClientBuilder} documents it
         */
        public void elicitationHandler(ElicitationHandler handler, boolean urlMode) {
            this.elicitationHandler = Objects.requireNonNull(handler, "handler");
            this.elicitationUrlMode = urlMode;
        }

        /**
         * Sets whether accepted form elicitations get schema defaults filled in.
         *
         * @param apply the setting, as {@code McpClientBuilder} documents it
         */
        public void applyElicitationDefaults(boolean apply) {
            this.applyElicitationDefaults = apply;
        }

        /**
         * Sets the sampling handler; {@code null} is refused.
         *
         * @param handler the setting, as {@code McpClientBuilder} documents it
         */
        public void samplingHandler(SamplingHandler handler) {
            this.samplingHandler = Objects.requireNonNull(handler, "handler");
        }

        /**
         * Sets the roots handler; {@code null} is refused.
         *
         * @param handler the setting, as {@code McpClientBuilder} documents it
         */
        public void rootsHandler(RootsHandler handler) {
            this.rootsHandler = Objects.requireNonNull(handler, "handler");
        }

        /**
         * Sets the client listener; {@code null} removes it.
         *
         * @param listener the setting, as {@code McpClientBuilder} documents it
         */
        public void listener(McpClientListener listener) {
            this.listener = listener;
        }

        /**
         * Sets the event listener; {@code null} removes it.
         *
         * @param listener the setting, as {@code McpClientBuilder} documents it
         */
        public void eventListener(McpEventListener listener) {
            this.eventListener = listener;
        }

        /**
         * Sets the output-schema mode; {@code null} is refused.
         *
         * @param mode the setting, as {@code McpClientBuilder} documents it
         */
        public void outputSchemaValidation(OutputSchemaValidation mode) {
            this.outputSchemaValidation = Objects.requireNonNull(mode, "mode");
        }

        /**
         * Sets the page cap of a complete listing; at least 1.
         *
         * @param pages the setting, as {@code McpClientBuilder} documents it
         */
        public void maxListPages(int pages) {
            this.maxListPages = (int) atLeastOne(pages, "maxListPages");
        }

        /**
         * Sets whether notifications are kept for draining.
         *
         * @param keep the setting, as {@code McpClientBuilder} documents it
         */
        public void keepNotifications(boolean keep) {
            this.keepNotifications = keep;
        }

        /**
         * Sets the byte budget of the drain queue; at least 1.
         *
         * @param bytes the setting, as {@code McpClientBuilder} documents it
         */
        public void notificationQueueBytes(long bytes) {
            this.notificationQueueBytes = atLeastOne(bytes, "notificationQueueBytes");
        }

        /**
         * Sets the capacity of the drain queue; at least 1.
         *
         * @param capacity the setting, as {@code McpClientBuilder} documents it
         */
        public void notificationQueueCapacity(int capacity) {
            this.notificationQueueCapacity = (int) atLeastOne(capacity, "notificationQueueCapacity");
        }

        /**
         * Sets the capacity of the listener queue (and of each call's progress queue); at least 1.
         *
         * @param capacity the setting, as {@code McpClientBuilder} documents it
         */
        public void listenerQueueCapacity(int capacity) {
            this.listenerQueueCapacity = (int) atLeastOne(capacity, "listenerQueueCapacity");
        }

        /**
         * Sets the byte budget of the listener queue (and of each call's progress queue); at least 1.
         *
         * @param bytes the setting, as {@code McpClientBuilder} documents it
         */
        public void listenerQueueBytes(long bytes) {
            this.listenerQueueBytes = atLeastOne(bytes, "listenerQueueBytes");
        }

        /**
         * Sets the bound of concurrent server-request handlers; at least 1.
         *
         * @param max the setting, as {@code McpClientBuilder} documents it
         */
        public void maxConcurrentServerRequests(int max) {
            this.maxConcurrentServerRequests = (int) atLeastOne(max, "maxConcurrentServerRequests");
        }

        /**
         * Sets how the era is picked; {@code null} is refused.
         *
         * @param mode the setting, as {@code McpClientBuilder} documents it
         */
        public void protocolMode(ProtocolMode mode) {
            this.protocolMode = Objects.requireNonNull(mode, "mode");
        }

        /**
         * Sets the AUTO probe's timeout; positive.
         *
         * @param timeout the setting, as {@code McpClientBuilder} documents it
         */
        public void probeTimeout(Duration timeout) {
            this.probeTimeout = positive(timeout, "probeTimeout");
        }

        /**
         * Sets the most {@code input_required} rounds of one request; at least 1.
         *
         * @param rounds the setting, as {@code McpClientBuilder} documents it
         */
        public void maxInputRounds(int rounds) {
            this.maxInputRounds = (int) atLeastOne(rounds, "maxInputRounds");
        }

        /**
         * Sets the task driver.
         *
         * @param support the driver, or {@code null} for none
         */
        public void taskSupport(dev.loommcp.spi.TaskSupport support) {
            this.taskSupport = support;
        }

        /**
         * Sets the bounds of the modern era's result cache; each at least 1.
         *
         * @param entries the most results held, as {@code McpClientBuilder} documents it
         * @param bytes   the most bytes held, likewise
         */
        public void resultCacheLimits(int entries, long bytes) {
            this.resultCacheEntries = (int) atLeastOne(entries, "resultCache entries");
            this.resultCacheBytes = atLeastOne(bytes, "resultCache bytes");
        }

        /**
         * Sets the file where AUTO keeps its era verdicts across JVMs.
         *
         * @param file the file, or {@code null} for memory only
         */
        public void eraVerdictFile(EraVerdictFile file) {
            this.eraVerdictFile = file;
        }

        /**
         * Returns the configuration.
         *
         * @return the immutable configuration
         */
        public SessionConfig build() {
            return new SessionConfig(transport, clientInfo, requestTimeout, connectTimeout, elicitationHandler,
                    elicitationUrlMode, applyElicitationDefaults, samplingHandler, rootsHandler, listener,
                    eventListener, outputSchemaValidation, maxListPages, maxConcurrentServerRequests,
                    keepNotifications, notificationQueueCapacity, notificationQueueBytes, listenerQueueCapacity,
                    listenerQueueBytes, protocolMode, probeTimeout, maxInputRounds, taskSupport,
                    resultCacheEntries, resultCacheBytes, eraVerdictFile);
        }

        private static long atLeastOne(long value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " must be at least 1: " + value);
            }
            return value;
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive: " + d);
            }
            return d;
        }
    }
}
