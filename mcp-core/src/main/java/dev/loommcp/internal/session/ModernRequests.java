package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.config.Era;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.intercept.OutgoingRequest;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.internal.session.era.Discovery;
import dev.loommcp.internal.session.era.EraVerdicts;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Implementation;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import dev.loommcp.McpClient;

/**
 * The modern era's wire path (MCP 2026-07-28): the request's scope, the {@link Envelope} and routing of each
 * request, the {@code -32022} corrective retry, a {@code -32021} passed on, the {@code resultType} check, multi
 * round-trip requests through {@link InputRounds}, the {@link ResultCache} for plain reads, the server's identity from
 * result {@code _meta}, the check of a cached era verdict by the first answer, and {@code tools/call} with
 * {@code Mcp-Param-*} headers ({@link HeaderRoutedCalls}) on a transport with an exchange per request. A request
 * the cache does not answer passes the client's {@link Interception} (when it has interceptors) and is then sent
 * through the {@link CallLife}. Thread-safe: its state is the version spoken and what the server last said of itself.
 */
final class ModernRequests implements WirePath, Interception.WireStep {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The only methods that may answer {@code resultType: "input_required"} (MCP 2026-07-28 "MRTR"). */
    private static final Set<String> INPUT_METHODS = Set.of("tools/call", "prompts/get", "resources/read");

    /**
     * Methods removed in the modern era (MCP 2026-07-28 changelog; the schema's {@code ClientRequest} and
     * {@code ClientNotification}), with what to use instead. Never sent in that era.
     */
    private static final Map<String, String> REMOVED_IN_MODERN = Map.of(
            "ping", "a modern server needs no liveness check; any request (for example tools/list) shows it answers",
            "logging/setLevel", "ask for log messages per request with RequestOptions.putMeta("
                    + "\"io.modelcontextprotocol/logLevel\", \"<level>\")",
            "resources/subscribe", "use McpClient.listen(SubscriptionFilter, SubscriptionListener)",
            "resources/unsubscribe", "close the Subscription that McpClient.listen returned",
            "notifications/roots/list_changed", "a modern server asks for roots within each request that needs "
                    + "them (the roots handler answers)",
            "initialize", "connect() learns a modern server with server/discover",
            "notifications/initialized", "connect() learns a modern server with server/discover");

    private final Envelope envelope;
    private final ResultCache cache;
    private final InputRounds inputRounds;
    private final CallLife calls;
    /** The tool calls with header routing, or {@code null} where the transport has no exchange per request. */
    private final HeaderRoutedCalls headerRouting;
    /**
     * The client's resilience policy, asked at the entry of each request that is not answered from the cache; or
     * {@code null} for none.
     */
    private final CallGuard guard;
    /** The client's interceptors, or {@code null} for none (the direct path). */
    private final Interception interception;

    /** The modern protocol version of the requests (a {@code -32022} corrective retry may change it). */
    private volatile String modernVersion = ProtocolMode.MODERN_PROTOCOL_VERSION;
    /** The server's identity as its latest modern result named it. */
    private volatile Implementation modernServerInfo;
    /** The JSON {@link #modernServerInfo} was decoded from (a result carrying the same is not decoded again). */
    private volatile Map<?, ?> lastServerInfoJson;
    /** A cached verdict adopted without asking the server; the first modern request's answer checks it. */
    private volatile Unverified unverified;

    record Unverified(String key, EraVerdicts.Verdict verdict) {
    }

    /**
     * @param headerRouting the tool calls with header routing: used only where {@code exchangePerRequest}
     * @param exchangePerRequest whether the transport has an exchange per request (where {@code Mcp-Param-*}
     *                           headers apply)
     */
    ModernRequests(Envelope envelope, ResultCache cache, InputRounds inputRounds, CallLife calls,
                   HeaderRoutedCalls headerRouting, boolean exchangePerRequest, CallGuard guard,
                   Interception interception) {
        this.guard = guard;
        this.envelope = envelope;
        this.cache = cache;
        this.inputRounds = inputRounds;
        this.calls = calls;
        this.headerRouting = exchangePerRequest ? headerRouting : null;
        this.interception = interception;
    }

    @Override
    public Era era() {
        return Era.MODERN;
    }

    @Override
    public boolean routesToolHeaders() {
        return headerRouting != null;
    }

    /** The modern version the requests carry now. */
    String version() {
        return modernVersion;
    }

    /** The server's identity as its latest modern result named it, or {@code null}. */
    Implementation serverInfo() {
        return modernServerInfo;
    }

    /** Takes the version and identity of an adopted {@code server/discover} result. */
    void adopt(String version, Implementation serverInfo) {
        modernVersion = version;
        modernServerInfo = serverInfo;
    }

    /** A cached verdict was adopted without asking the server: the first answer checks it. */
    void unverified(String key, EraVerdicts.Verdict verdict) {
        unverified = new Unverified(key, verdict);
    }

    /**
     * One modern request, whole (MODERN-ERA.md C.1), in its scope: the {@code _meta} envelope ({@link Envelope}:
     * protocol version, exactly the client's capabilities, client info, merged into the caller's {@code _meta}), the
     * {@link RequestRouting} on the send context, a new id; a {@code -32022} answer is retried once with the newest
     * mutual version (even the same one), then fails with {@link McpRpcException} {@code -32022}; {@code -32021}
     * fails with {@link McpRpcException} as it came; the result's {@code resultType} is checked (absent or
     * {@code complete}: done; {@code input_required} on {@code tools/call}, {@code prompts/get} or
     * {@code resources/read}: completed through {@link InputRounds} within the same deadline and token; anything
     * else: {@link McpProtocolException}). A method removed in the modern era fails with
     * {@link McpUnsupportedInEraException} and nothing is sent.
     *
     * @return the result ({@code resultType} complete)
     * @throws InterruptedException if the calling thread is interrupted
     */
    @Override
    public Object call(String method, Map<String, Object> params, RequestOptions options, Consumer<RequestId> onSent)
            throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        Deadline start = Deadline.ofNanoTime(System.nanoTime());
        try (Scope<Object, Void> scope = calls.openScope(method, options, start)) {
            refuseRemoved(method);
            calls.ensureConnected(method);
            String readUri = cacheableRead(method, params);
            long generation = cache.generation();
            if (readUri != null) {
                Map<String, Object> cached = cache.read(readUri);
                if (cached != null) {
                    return cached;
                }
            }
            Interception chain = interception;
            if (chain == null) {
                Deadline deadline = calls.deadlineIn(scope, options, start);
                if (guard == null) { // nothing in the way: no frame added
                    return exchange(method, params, options, onSent, deadline, readUri, generation,
                            CallGuard.Control.ONCE);
                }
                return guarded(method, params, options, scope, onSent, deadline, readUri, generation);
            }
            return chain.run(method, params, options, scope, start, onSent, this);
        } catch (McpCancelledException e) {
            // close() cancels the client's tree, an input handler's watch with it: the caller learns of the close
            throw calls.closedInsteadOfCancelled(method, e);
        }
    }

    /**
     * The rest of a request after the interceptors (the guard, the send). A plain read is cached only when the
     * interceptors left it plain but for {@code _meta} (trace context they add neither disables the cache nor enters
     * its key).
     */
    @Override
    public Object send(OutgoingRequest request, Interception.Step step) throws InterruptedException {
        String method = request.method();
        Map<String, Object> params = step.paramsOf(request);
        String readUri = cacheableRead(method, step.original);
        if (readUri != null && !(params != null && readUri.equals(params.get("uri"))
                && (params.size() == 1 || params.size() == 2 && params.containsKey("_meta")))) {
            readUri = null;
        }
        Deadline deadline = calls.deadlineIn(step.scope, request.options(), step.start);
        return guarded(method, params, request.options(), step.scope, step.onSent, deadline, readUri,
                cache.generation());
    }

    /** The request through the resilience policy when the client has one (every attempt an {@link #exchange}). */
    private Object guarded(String method, Map<String, Object> params, RequestOptions options, Scope<?, ?> scope,
                           Consumer<RequestId> onSent, Deadline deadline, String readUri, long generation)
            throws InterruptedException {
        if (guard == null) {
            return exchange(method, params, options, onSent, deadline, readUri, generation, CallGuard.Control.ONCE);
        }
        return guard.call(new CallGuard.Request(method, params, deadline, options.token().orElse(null), scope),
                control -> exchange(method, params, options, onSent, deadline, readUri, generation, control));
    }

    /**
     * One attempt of a modern request past the cache, the interceptors and the guard: the send, the check of a cached
     * verdict, input rounds (after which the guard must not repeat it: the user's handlers were asked), the
     * {@code resultType} check, the cache.
     */
    private Map<String, Object> exchange(String method, Map<String, Object> params, RequestOptions options,
                                         Consumer<RequestId> onSent, Deadline deadline, String readUri,
                                         long generation, CallGuard.Control control) throws InterruptedException {
        Map<String, Object> result;
        try {
            result = sendModern(method, params, options, false, onSent, deadline);
        } catch (McpRpcException | McpTransportException e) {
            checkVerdict(e);
            throw e;
        }
        checkVerdict(null);
        Object type = result.get("resultType");
        if ("input_required".equals(type) && INPUT_METHODS.contains(method)) {
            control.noRetry();
            CancellationToken token = options.token().orElse(null);
            result = inputRounds.complete(method, params, result,
                    p -> noteServerInfo(sendModern(method, p, Deadlines.remaining(options, deadline, method),
                            false, null, deadline)), deadline, token, mayAnswerTask(method));
            requireComplete(method, result);
            return result; // never cached: it took input
        }
        requireComplete(method, result);
        noteServerInfo(result);
        if (readUri != null) {
            cache.putRead(readUri, result, generation);
        }
        return result;
    }

    /**
     * After a connect that adopted a cached discover result without asking the server: the first answer either
     * confirms the verdict or, when it is legacy evidence (the server went back to the legacy era), drops it, so that
     * the next connect probes again.
     */
    private void checkVerdict(McpException failure) {
        Unverified u = unverified;
        if (u == null) {
            return;
        }
        unverified = null;
        String evidence = failure == null ? null : Discovery.legacyEvidence(failure);
        if (evidence != null) {
            EraVerdicts.drop(u.key(), u.verdict());
            LOG.log(System.Logger.Level.INFO, () -> "server " + calls.describe() + " answered " + evidence
                    + " although its cached server/discover result said modern; the next connect probes again");
        }
    }

    /** The URI of a plain {@code resources/read} (only a {@code uri}) in the modern era, else {@code null}. */
    private static String cacheableRead(String method, Map<String, Object> params) {
        return method.equals("resources/read") && params != null && params.size() == 1
                && params.get("uri") instanceof String uri ? uri : null;
    }

    /**
     * Whether {@code method} may be answered with {@code resultType: "task"}: {@code tools/call} (the only task
     * augmentable request today, MODERN-ERA.md C.5.2) and every {@code tasks/*} request (C.5.4: the status decides),
     * and only when the request declared the tasks extension.
     */
    private boolean mayAnswerTask(String method) {
        return envelope.declaresTasks() && (method.equals("tools/call") || method.startsWith("tasks/"));
    }

    private void requireComplete(String method, Map<String, Object> result) {
        Object type = result.get("resultType");
        if (type == null || "complete".equals(type) || "task".equals(type) && mayAnswerTask(method)) {
            return;
        }
        throw new McpProtocolException("server " + calls.describe() + " answered " + method + " with resultType "
                + (type instanceof String t ? "'" + t + "'" : dev.loommcp.internal.json.JsonRpcCodec.kind(type)) + ", which "
                + (type.equals("input_required") ? "only tools/call, prompts/get and resources/read may send"
                : type.equals("task") ? (envelope.declaresTasks() ? "only tools/call and tasks/* may send"
                : "needs the tasks extension " + dev.loommcp.spi.TaskChannel.EXTENSION + ", which this client does "
                + "not declare (install a TaskSupport: McpClient.Builder.taskSupport)")
                : "this client does not know") + "; the result was not used");
    }

    /**
     * Takes the server's identity from a result's {@code _meta}; the same JSON as last time (the usual case: every
     * result of a server carries it) is not decoded again.
     */
    private Map<String, Object> noteServerInfo(Map<String, Object> result) {
        if (!(result.get("_meta") instanceof Map<?, ?> meta)
                || !(meta.get(Discovery.SERVER_INFO) instanceof Map<?, ?> raw)) {
            return result;
        }
        if (raw.equals(lastServerInfoJson)) {
            return result;
        }
        Implementation info = Discovery.implementation(raw);
        if (info != null) {
            modernServerInfo = info;
            lastServerInfoJson = raw;
        }
        return result;
    }

    /**
     * One modern request with its {@code -32022} corrective retry and a {@code -32021} passed on; the result's
     * {@code resultType} is not interpreted.
     */
    Map<String, Object> sendModern(String method, Map<String, Object> params, RequestOptions options,
                                           boolean handshake, Consumer<RequestId> onSent, Deadline deadline)
            throws InterruptedException {
        String version = modernVersion;
        try {
            // the first attempt inline (modernOnce's two lines): one frame fewer on every modern call's path
            RequestRouting routing = envelope.routing(method, params, version);
            return Params.asObject(calls.call(method, envelope.wrap(params, version), options, handshake, routing,
                    onSent), method);
        } catch (McpRpcException e) {
            if (e.code() != Discovery.UNSUPPORTED_VERSION) {
                throw e;
            }
            String mutual = Discovery.mutualVersion(Discovery.supportedOf(e.error()));
            if (mutual == null) {
                throw e;
            }
            LOG.log(System.Logger.Level.DEBUG, () -> method + " refused with -32022; retrying once with " + mutual);
            modernVersion = mutual;
            return modernOnce(method, params, Deadlines.remaining(options, deadline, method), handshake, onSent,
                    mutual);
        }
    }

    private Map<String, Object> modernOnce(String method, Map<String, Object> params, RequestOptions options,
                                           boolean handshake, Consumer<RequestId> onSent, String version)
            throws InterruptedException {
        RequestRouting routing = envelope.routing(method, params, version);
        return Params.asObject(calls.call(method, envelope.wrap(params, version), options, handshake, routing, onSent),
                method);
    }

    @Override
    public Object callTool(String name, Map<String, Object> params, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        return headerRouting != null ? headerRouting.callTool(name, params, options, deadline, this)
                : call("tools/call", params, options, null);
    }

    @Override
    public void notify(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        refuseRemoved(method);
        calls.notify(method, params, options, Envelope.notificationRouting(method, modernVersion));
    }

    /**
     * Refuses a method the modern era removed, before anything is sent.
     *
     * @throws McpUnsupportedInEraException for a method the modern era removed
     */
    private static void refuseRemoved(String method) {
        if (REMOVED_IN_MODERN.containsKey(method)) {
            throw new McpUnsupportedInEraException(method, Era.MODERN, REMOVED_IN_MODERN.get(method));
        }
    }
}
