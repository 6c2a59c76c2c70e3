package dev.loommcp;

import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.ServerRequestInterceptor;
import dev.loommcp.internal.session.EventListeners;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.era.EraVerdictFile;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.schema.Implementation;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TaskSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one {@link McpClient.Builder}: each setting's default and its check, and the immutable
 * {@link SessionConfig} the session takes. The builder's public methods document each setting and call the setter
 * of the same name here, which checks the value (the exception the builder's Javadoc names) and keeps it;
 * {@link #config()} snapshots them. Not thread-safe, like the builder.
 */
final class ClientSettings {

    private final McpTransport transport;
    private @Nullable String serverName;
    private Implementation clientInfo = Implementation.of("loom-mcp", "0.1.0");
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration connectTimeout = Duration.ofSeconds(30);
    private @Nullable ElicitationHandler elicitationHandler;
    private boolean elicitationUrlMode = true;
    private boolean applyElicitationDefaults;
    private @Nullable SamplingHandler samplingHandler;
    private @Nullable RootsHandler rootsHandler;
    private @Nullable McpClientListener listener;
    private @Nullable McpEventListener eventListener;
    private final List<McpEventListener> addedEventListeners = new ArrayList<>();
    private OutputSchemaValidation outputSchemaValidation = OutputSchemaValidation.WARN;
    private int maxListPages = 1000;
    private int maxConcurrentServerRequests = McpClient.DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS;
    private boolean keepNotifications;
    private int notificationQueueCapacity = 1024;
    private long notificationQueueBytes = 16L << 20;
    private int listenerQueueCapacity = 65_536;
    private long listenerQueueBytes = 32L << 20;
    private ProtocolMode protocolMode = ProtocolMode.AUTO;
    private Duration probeTimeout = Duration.ofSeconds(3);
    private int maxInputRounds = 10;
    private @Nullable TaskSupport taskSupport;
    private int resultCacheEntries = 1024;
    private long resultCacheBytes = 32L << 20;
    private @Nullable EraVerdictFile eraVerdictFile;
    private ResiliencePolicy resilience = ResiliencePolicy.NONE;
    private final List<McpInterceptor> interceptors = new ArrayList<>();
    private final List<ServerRequestInterceptor> serverRequestInterceptors = new ArrayList<>();

    ClientSettings(McpTransport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    McpTransport transport() {
        return transport;
    }

    @Nullable String serverName() {
        return serverName;
    }

    // ------------------------------------------------------------------------------------------------ setters
    // one per setting of McpClient.Builder, which documents each: the check, then the value

    void serverName(String name) {
        this.serverName = printable(name, "serverName");
    }

    void clientInfo(Implementation info) {
        this.clientInfo = checked(info);
    }

    void requestTimeout(Duration timeout) {
        this.requestTimeout = positive(timeout, "requestTimeout");
    }

    void connectTimeout(Duration timeout) {
        this.connectTimeout = positive(timeout, "connectTimeout");
    }

    void elicitationHandler(ElicitationHandler handler, boolean urlMode) {
        this.elicitationHandler = Objects.requireNonNull(handler, "handler");
        this.elicitationUrlMode = urlMode;
    }

    void applyElicitationDefaults(boolean apply) {
        this.applyElicitationDefaults = apply;
    }

    void samplingHandler(SamplingHandler handler) {
        this.samplingHandler = Objects.requireNonNull(handler, "handler");
    }

    void rootsHandler(RootsHandler handler) {
        this.rootsHandler = Objects.requireNonNull(handler, "handler");
    }

    void listener(@Nullable McpClientListener listener) {
        this.listener = listener;
    }

    void eventListener(@Nullable McpEventListener listener) {
        this.eventListener = listener;
    }

    void addEventListener(McpEventListener listener) {
        addedEventListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void outputSchemaValidation(OutputSchemaValidation mode) {
        this.outputSchemaValidation = Objects.requireNonNull(mode, "mode");
    }

    void maxListPages(int pages) {
        this.maxListPages = (int) atLeastOne(pages, "maxListPages");
    }

    void keepNotifications(boolean keep) {
        this.keepNotifications = keep;
    }

    void notificationQueueBytes(long bytes) {
        this.notificationQueueBytes = atLeastOne(bytes, "notificationQueueBytes");
    }

    void listenerQueueCapacity(int capacity) {
        this.listenerQueueCapacity = (int) atLeastOne(capacity, "listenerQueueCapacity");
    }

    void listenerQueueBytes(long bytes) {
        this.listenerQueueBytes = atLeastOne(bytes, "listenerQueueBytes");
    }

    void notificationQueueCapacity(int capacity) {
        this.notificationQueueCapacity = (int) atLeastOne(capacity, "notificationQueueCapacity");
    }

    void maxConcurrentServerRequests(int max) {
        this.maxConcurrentServerRequests = (int) atLeastOne(max, "maxConcurrentServerRequests");
    }

    void protocolMode(ProtocolMode mode) {
        this.protocolMode = Objects.requireNonNull(mode, "mode");
    }

    void eraVerdictCache(Path file, Duration ttl) {
        this.eraVerdictFile = new EraVerdictFile(file, ttl);
    }

    void probeTimeout(Duration timeout) {
        this.probeTimeout = positive(timeout, "probeTimeout");
    }

    void maxInputRounds(int rounds) {
        this.maxInputRounds = (int) atLeastOne(rounds, "maxInputRounds");
    }

    void resultCacheLimits(int entries, long bytes) {
        this.resultCacheEntries = (int) atLeastOne(entries, "resultCache entries");
        this.resultCacheBytes = atLeastOne(bytes, "resultCache bytes");
    }

    void taskSupport(TaskSupport support) {
        this.taskSupport = Objects.requireNonNull(support, "support");
    }

    void resilience(ResiliencePolicy policy) {
        this.resilience = Objects.requireNonNull(policy, "policy");
    }

    void addInterceptor(McpInterceptor interceptor) {
        interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }

    void addServerRequestInterceptor(ServerRequestInterceptor interceptor) {
        serverRequestInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }

    /** The settings as the session takes them: an immutable snapshot. */
    SessionConfig config() {
        return new SessionConfig(transport, clientInfo, requestTimeout, connectTimeout, elicitationHandler,
                elicitationUrlMode, applyElicitationDefaults, samplingHandler, rootsHandler, listener,
                EventListeners.of(eventListener, addedEventListeners), outputSchemaValidation, maxListPages,
                maxConcurrentServerRequests, keepNotifications, notificationQueueCapacity, notificationQueueBytes,
                listenerQueueCapacity, listenerQueueBytes, protocolMode, probeTimeout, maxInputRounds, taskSupport,
                resultCacheEntries, resultCacheBytes, eraVerdictFile, resilience, List.copyOf(interceptors),
                List.copyOf(serverRequestInterceptors), serverName);
    }

    /** Checks a client identity: its name and version not empty, no ISO control character in name, version, title. */
    private static Implementation checked(Implementation info) {
        Objects.requireNonNull(info, "info");
        printable(info.name(), "clientInfo name");
        printable(info.version(), "clientInfo version");
        if (info.title() != null) {
            printable(info.title(), "clientInfo title");
        }
        return info;
    }

    /** {@code value} when at least 1, else an {@link IllegalArgumentException} naming {@code what}. */
    private static long atLeastOne(long value, String what) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1: " + value);
        }
        return value;
    }

    /** A user-given name that reaches logs and messages: not empty, no ISO control character. */
    private static String printable(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(what + " must not hold control characters: it has U+"
                        + String.format("%04X", (int) value.charAt(i)) + " at index " + i);
            }
        }
        return value;
    }

    /** {@code d} when positive, else an {@link IllegalArgumentException} naming {@code what}. */
    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
        return d;
    }
}
