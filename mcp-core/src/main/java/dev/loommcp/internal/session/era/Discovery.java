package dev.loommcp.internal.session.era;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.internal.session.base.CallContext;
import dev.loommcp.internal.session.base.CancelSignal;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.TransportContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.loommcp.Registration;

/**
 * The modern era's {@code server/discover} (MCP 2026-07-28 "server/discover"; "Versioning: backward compatibility
 * with initialization-based versions"): reading and validating a {@link DiscoverResult}, the version both sides
 * speak, which answers are era evidence for {@code ProtocolMode.AUTO}, and the throw-away probe of a transport that
 * offers one ({@link McpTransport#probeTransport()}) or on the session's own connection. Stateless; thread-safe.
 */
public final class Discovery {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** {@code -32020}: a header does not match the body (a recognized modern error). */
    static final int HEADER_MISMATCH = -32020;
    /** {@code -32021}: the request lacks a client capability the server needs (a recognized modern error). */
    static final int MISSING_CAPABILITY = JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY;
    /** {@code -32022}: the request's protocol version is not supported (a recognized modern error). */
    public static final int UNSUPPORTED_VERSION = JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION;

    /** The modern versions this client speaks, newest first. */
    static final List<String> MODERN_VERSIONS = List.of(ProtocolMode.MODERN_PROTOCOL_VERSION);

    private Discovery() {
    }

    /**
     * Reads a {@code server/discover} result: valid when {@code resultType} is absent or {@code "complete"},
     * {@code supportedVersions} is a non-empty array of strings and {@code capabilities} an object. The server's
     * identity comes from {@code _meta["io.modelcontextprotocol/serverInfo"]}, else a top-level {@code serverInfo}.
     *
     * @param raw the result object
     * @return the result, or {@code null} when it does not validate
     */
    @SuppressWarnings("unchecked")
    static DiscoverResult parse(Map<String, Object> raw) {
        Object type = raw.get("resultType");
        if (type != null && !"complete".equals(type)) {
            return null;
        }
        if (!(raw.get("supportedVersions") instanceof List<?> versions) || versions.isEmpty()
                || !versions.stream().allMatch(String.class::isInstance)) {
            return null;
        }
        if (!(raw.get("capabilities") instanceof Map<?, ?> caps)) {
            return null;
        }
        ServerCapabilities capabilities;
        try {
            capabilities = FastResults.serverCapabilities(caps, "server/discover capabilities");
        } catch (McpProtocolException e) {
            return null;
        }
        Implementation info = serverInfo(raw);
        if (info == null && raw.get("serverInfo") instanceof Map<?, ?> top) {
            info = implementation(top);
        }
        long ttl = raw.get("ttlMs") instanceof Number n ? n.longValue() : 0;
        return new DiscoverResult((List<String>) versions, capabilities,
                raw.get("instructions") instanceof String s ? s : null, info, ttl,
                raw.get("cacheScope") instanceof String scope ? scope : null,
                raw.get("_meta") instanceof Map<?, ?> meta ? (Map<String, Object>) meta : null);
    }

    /**
     * Reads a {@code server/discover} success that does not validate, for a connection whose mode forces the modern
     * era: {@code supportedVersions} becomes {@code version}, {@code capabilities} what the result has (an object)
     * or none; instructions, server info and caching hints as {@link #parse} reads them.
     *
     * @param raw     the result object
     * @param version the version the connection speaks
     * @return the result
     */
    @SuppressWarnings("unchecked")
    static DiscoverResult lenient(Map<String, Object> raw, String version) {
        ServerCapabilities capabilities = raw.get("capabilities") instanceof Map<?, ?> caps
                ? validCapabilities(caps) : FastResults.serverCapabilities(Map.of(), "server/discover capabilities");
        Implementation info = serverInfo(raw);
        if (info == null && raw.get("serverInfo") instanceof Map<?, ?> top) {
            info = implementation(top);
        }
        return new DiscoverResult(List.of(version), capabilities,
                raw.get("instructions") instanceof String s ? s : null, info, 0,
                raw.get("cacheScope") instanceof String scope ? scope : null,
                raw.get("_meta") instanceof Map<?, ?> meta ? (Map<String, Object>) meta : null);
    }

    /**
     * The capabilities of a lenient read: every member that is valid on its own is kept, and the others (say
     * {@code "prompts": "x"}) are dropped with a WARNING naming them, so that one malformed member does not hide the
     * tools a server does offer.
     */
    private static ServerCapabilities validCapabilities(Map<?, ?> caps) {
        String what = "server/discover capabilities";
        try {
            return FastResults.serverCapabilities(caps, what);
        } catch (McpProtocolException e) {
            Map<Object, Object> kept = new java.util.LinkedHashMap<>();
            List<Object> dropped = new java.util.ArrayList<>();
            for (Map.Entry<?, ?> member : caps.entrySet()) {
                try {
                    FastResults.serverCapabilities(
                            java.util.Collections.singletonMap(member.getKey(), member.getValue()), what);
                    kept.put(member.getKey(), member.getValue());
                } catch (McpProtocolException malformed) {
                    dropped.add(member.getKey());
                }
            }
            LOG.log(System.Logger.Level.WARNING, () -> "server/discover capabilities " + dropped
                    + " are malformed and were dropped; the others are kept");
            return FastResults.serverCapabilities(kept, what);
        }
    }

    /**
     * Returns the newest modern version this client speaks that is in {@code supported}.
     *
     * @param supported the server's versions
     * @return the version, or {@code null} when there is none
     */
    public static String mutualVersion(List<?> supported) {
        for (String v : MODERN_VERSIONS) {
            if (supported != null && supported.contains(v)) {
                return v;
            }
        }
        return null;
    }

    /** The {@code data.supported} list of a {@code -32022} error, or an empty list. */
    public static List<?> supportedOf(JsonRpcError error) {
        return error.data() instanceof Map<?, ?> d && d.get("supported") instanceof List<?> l ? l : List.of();
    }

    /**
     * Whether a JSON-RPC error answering a modern request is a recognized modern error (so the server speaks the
     * modern era): {@code -32020}, {@code -32021}, or {@code -32022} naming a version this client speaks.
     */
    static boolean isModernError(JsonRpcError error) {
        return error.code() == HEADER_MISMATCH || error.code() == MISSING_CAPABILITY
                || (error.code() == UNSUPPORTED_VERSION && mutualVersion(supportedOf(error)) != null);
    }

    /**
     * Classifies the failure of {@code server/discover} on the session's own transport in {@code AUTO} mode (C.2
     * items 8 to 11): returns what makes it legacy evidence, or {@code null} when it is not (a recognized modern
     * error, an HTTP 401/403, 429 or 5xx, a network failure, a timeout, a cancellation: {@code connect()} fails with
     * it). An answer that is no valid modern answer at all ({@link McpProtocolException}: over HTTP a 2xx without a
     * JSON answer, such as 204, 200 with an empty JSON body or 200 {@code text/plain}; a malformed answer) is legacy
     * evidence as a 400/404 is: a modern server answers {@code server/discover} with a result.
     *
     * @param failure what the discover call threw
     * @return the evidence, or {@code null}
     */
    public static String legacyEvidence(McpException failure) {
        if (failure instanceof McpProtocolException) {
            return "an answer that is not a server/discover result (" + failure.getMessage() + ")";
        }
        if (failure instanceof McpRpcException u && u.code() == UNSUPPORTED_VERSION) {
            return mutualVersion(u.supportedVersions()) == null
                    ? "-32022 naming no modern version (" + u.supportedVersions() + ")" : null;
        }
        if (failure instanceof McpRpcException e) {
            return isModernError(e.error()) ? null : "JSON-RPC error " + e.code();
        }
        if (failure instanceof McpTransportException t && t.httpStatus().isPresent()) {
            int status = t.httpStatus().getAsInt();
            // 429 (Too Many Requests) says "later", not "unknown method": no era evidence either
            return status >= 400 && status < 500 && status != 401 && status != 403 && status != 429
                    ? "HTTP " + status : null;
        }
        return null;
    }

    /**
     * The verdict of a probe.
     *
     * @param era      the era the evidence shows
     * @param discover the adopted result when the probe got a valid one, else {@code null}
     * @param evidence what the verdict rests on, for logs and messages
     * @param lost     whether the probe ended the connection it ran on (the process exited, the output became
     *                 unusable, the send failed): a legacy verdict then needs a fresh connection
     */
    record Probe(Era era, DiscoverResult discover, String evidence, boolean lost) {
    }

    /** Opens the probe's transport with the probe's sink. */
    @FunctionalInterface
    interface Opener {
        void open(ProbeSink sink) throws InterruptedException;
    }

    /**
     * Probes a throw-away transport (C.2 items 1 to 5): opens it, sends one {@code server/discover}, waits for the
     * answer until {@code probeDeadline}, and always hands it to {@code closer} (which closes it and waits for its
     * end, so that the session's own process never runs beside it). A failure to start it is a legacy verdict (the
     * session's own open then reports it).
     *
     * @param probe  the unopened probe transport
     * @param closer closes the probe transport once the probe is over
     * @see #probe(ProbeSink, Opener, McpTransport, Wrapping, Deadline, Deadline, CancellationToken,
     *      java.util.function.UnaryOperator)
     */
    static Probe probeAside(McpTransport probe, Wrapping envelope, Deadline probeDeadline, Deadline connectDeadline,
                            CancellationToken token, java.util.function.Consumer<McpTransport> closer,
                            java.util.function.UnaryOperator<Runnable> whenClosed) throws InterruptedException {
        try {
            return probe(new ProbeSink(null, lost -> { }), sink -> {
                try {
                    probe.open(TransportContext.of(sink, probeDeadline));
                } catch (McpException e) {
                    sink.answer().complete(e);
                }
            }, probe, envelope, probeDeadline, connectDeadline, token, whenClosed);
        } finally {
            closer.accept(probe);
        }
    }

    /**
     * Sends one {@code server/discover} (id {@link ProbeSink#PROBE_ID}) on {@code transport}, opened by
     * {@code opener} with {@code sink}, and waits for the answer until {@code probeDeadline} (C.2 items 1 to 5). A
     * valid result sharing a modern version, a recognized modern error, or {@code -32022} naming a modern version
     * means modern; any other error, a result that does not validate, silence until the probe deadline, the
     * transport's loss (the process exited) or a send failure mean legacy. The transport is left as it is (open).
     *
     * @param sink            the probe stage of the transport's sink
     * @param opener          opens the transport with {@code sink}
     * @param transport       the transport the probe goes over
     * @param envelope        builds the request's {@code _meta} and routing
     * @param probeDeadline   the earlier of the probe timeout and the connect deadline
     * @param connectDeadline the connect deadline (silence until it is a timeout of {@code connect()}, not evidence)
     * @param token           the connect's token, or {@code null}
     * @param whenClosed      registers an action to run when the client closes, returning what unregisters it
     * @return the verdict
     * @throws McpTimeoutException   if the connect deadline passed during the probe
     * @throws McpCancelledException if the token fired
     * @throws McpClosedException    if the client was closed during the probe
     * @throws InterruptedException  if the calling thread is interrupted
     */
    static Probe probe(ProbeSink sink, Opener opener, McpTransport transport, Wrapping envelope,
                       Deadline probeDeadline, Deadline connectDeadline, CancellationToken token,
                       java.util.function.UnaryOperator<Runnable> whenClosed) throws InterruptedException {
        CompletableFuture<Object> answer = sink.answer();
        String version = MODERN_VERSIONS.get(0);
        RequestId id = ProbeSink.PROBE_ID;
        CallContext context = new CallContext(probeDeadline, id, false,
                envelope.routing("server/discover", null, version));
        Registration registration = token == null ? null
                : token.onCancel(() -> answer.completeExceptionally(
                        new CancelSignal(token.reason().orElse("cancelled"))));
        // the probe's wait is not a call of the session: a close of the client reaches it only through this
        Runnable unregister = whenClosed.apply(() -> answer.completeExceptionally(new McpClosedException(
                "connect failed: the client was closed during the era probe (server/discover)", null)));
        try {
            opener.open(sink);
            if (!answer.isDone()) {
                try {
                    transport.send(new JsonRpcMessage.Request(id, "server/discover", envelope.wrap(null, version)),
                            context);
                } catch (McpClosedException e) {
                    throw e;
                } catch (McpException e) {
                    answer.complete(e);
                }
            }
            Object a;
            try {
                long left = probeDeadline.remainingNanos();
                a = left <= 0 ? answer.getNow(null) : answer.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                a = null;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof McpClosedException closed) {
                    throw new McpClosedException(closed.getMessage(), null); // thrown here, not on the closer
                }
                throw new McpCancelledException("connect cancelled during the era probe: "
                        + ((CancelSignal) e.getCause()).reason);
            }
            if (a == null) {
                if (connectDeadline.isExpired()) {
                    throw new McpTimeoutException("connect timed out during the era probe (server/discover)");
                }
                return new Probe(Era.LEGACY, null, "no answer to server/discover within the probe timeout", false);
            }
            return verdict(a);
        } finally {
            if (registration != null) {
                registration.close();
            }
            unregister.run();
            context.cancel();
        }
    }

    @SuppressWarnings("unchecked")
    private static Probe verdict(Object answer) {
        return switch (answer) {
            case JsonRpcMessage.Response r -> {
                Object result;
                try {
                    result = JsonRpcCodec.plainResult(r.result()); // kept as bytes by the reader: decoded here
                } catch (McpProtocolException e) {
                    yield new Probe(Era.LEGACY, null, "a malformed answer", false);
                }
                DiscoverResult d = result instanceof Map<?, ?> m ? parse((Map<String, Object>) m) : null;
                if (d == null) {
                    yield new Probe(Era.LEGACY, null, "a server/discover result that is not a DiscoverResult",
                            false);
                }
                yield mutualVersion(d.supportedVersions()) == null
                        ? new Probe(Era.LEGACY, null, "supportedVersions " + d.supportedVersions()
                                + " share no version with this client", false)
                        : new Probe(Era.MODERN, d, "a DiscoverResult", false);
            }
            case JsonRpcMessage.ErrorResponse e -> isModernError(e.error())
                    ? new Probe(Era.MODERN, null, "JSON-RPC error " + e.error().code(), false)
                    : new Probe(Era.LEGACY, null, "JSON-RPC error " + e.error().code(), false);
            case McpException e -> new Probe(Era.LEGACY, null, "the probe ended without an answer ("
                    + e.getClass().getSimpleName() + ")", true);
            default -> new Probe(Era.LEGACY, null, String.valueOf(answer), false);
        };
    }

    /** Result {@code _meta} key of the server's identity. */
    public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

    /** The modern per-request fields a probe's {@code server/discover} carries (the session's {@code Envelope}). */
    public interface Wrapping {
        /**
         * The params with the modern {@code _meta} fields merged in.
         *
         * @param params  the caller's params, or {@code null}
         * @param version the protocol version the request carries
         * @return the params to send
         */
        Map<String, Object> wrap(Map<String, Object> params, String version);

        /**
         * The routing a transport with headers sends for a request.
         *
         * @param method  the method
         * @param params  the params, or {@code null}
         * @param version the protocol version
         * @return the routing
         */
        RequestRouting routing(String method, Map<String, Object> params, String version);
    }

    /**
     * Reads the server's identity from a result's {@code _meta["io.modelcontextprotocol/serverInfo"]}.
     *
     * @param result the result object
     * @return the identity, or {@code null} when absent or malformed
     */
    static Implementation serverInfo(Map<String, Object> result) {
        if (result.get("_meta") instanceof Map<?, ?> meta && meta.get(SERVER_INFO) instanceof Map<?, ?> info) {
            return implementation(info);
        }
        return null;
    }

    /** An {@link Implementation} from a JSON object with string {@code name} and {@code version}, else null. */
    public static Implementation implementation(Map<?, ?> info) {
        if (info.get("name") instanceof String n && info.get("version") instanceof String v) {
            try {
                return FastResults.implementation(info, "serverInfo");
            } catch (RuntimeException e) {
                return Implementation.of(n, v);
            }
        }
        return null;
    }
}
