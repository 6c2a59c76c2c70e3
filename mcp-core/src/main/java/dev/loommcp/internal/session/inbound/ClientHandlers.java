package dev.loommcp.internal.session.inbound;

import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.McpContext;
import dev.loommcp.McpException;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.intercept.McpConnection;
import dev.loommcp.intercept.ServerRequest;
import dev.loommcp.intercept.ServerRequestInterceptor;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.net.Hosts;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Root;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The application's answers to what a server asks of the client: {@code elicitation/create},
 * {@code sampling/createMessage} and {@code roots/list}, through the {@link ElicitationHandler},
 * {@link SamplingHandler} and {@link RootsHandler} of the {@link SessionConfig}. One code path for both protocol
 * eras: the 2025 server-to-client requests ({@link InboundDispatcher}, which keeps the threads, the bound, the
 * cancellation and the JSON-RPC answer) and the 2026 multi round-trip requests ({@code InputRounds}). Both get the
 * same checks: params parsed into the schema records, URL-mode elicitation only when declared and only with an
 * absolute https URL (http only on a loopback host), elicitation defaults filled in when configured, and the
 * handler's answer validated before it goes on the wire.
 *
 * <p>Each request is {@link #prepare prepared} (parsed and checked, without calling the handler) and then
 * {@link Prepared#answer answered} (the handler runs on the calling thread), through the client's
 * {@link ServerRequestInterceptor}s when it has any (both eras; an answer an interceptor makes is checked as a
 * handler's). Thread-safe: it keeps no state of its own; the handlers are called concurrently when requests come in
 * concurrently.
 */
public final class ClientHandlers {

    /** The elicitation method. */
    public static final String ELICIT = "elicitation/create";
    /** The sampling method. */
    public static final String SAMPLE = "sampling/createMessage";
    /** The roots method. */
    public static final String ROOTS = "roots/list";

    private static final Set<String> METHODS = Set.of(ELICIT, SAMPLE, ROOTS);
    private static final Set<String> ACTIONS = Set.of(ElicitResult.ACCEPT, ElicitResult.DECLINE, ElicitResult.CANCEL);
    private static final Set<String> ROLES = Set.of("user", "assistant");

    /** A request parsed and checked, whose handler has not run yet. */
    @FunctionalInterface
    public interface Prepared {
        /**
         * Runs the handler on this thread and returns its validated answer.
         *
         * @return the result as plain JSON (a map)
         * @throws InvalidAnswerException if the handler's answer cannot go on the wire
         * @throws Exception              whatever the handler throws ({@link InterruptedException} when interrupted)
         */
        Object answer() throws Exception;
    }

    /**
     * The server asked for something this client did not declare (URL-mode elicitation when only form mode was
     * declared). The message names what, never a payload.
     */
    public static final class NotDeclaredException extends RuntimeException {
        NotDeclaredException(String message) {
            super(message, null, false, false);
        }
    }

    /** A handler answered something that cannot be sent: the message says what, never the value. */
    public static final class InvalidAnswerException extends RuntimeException {
        InvalidAnswerException(String message) {
            super(message, null, false, false);
        }
    }

    private final ElicitationHandler elicitation;
    private final boolean urlMode;
    private final boolean applyDefaults;
    private final SamplingHandler sampling;
    private final RootsHandler roots;
    /** The interceptors of server requests, outermost first; {@code null} when there are none. */
    private final ServerRequestInterceptor[] interceptors;
    private final McpConnection connection;

    /**
     * Takes the handlers and the elicitation settings of a session's configuration; its server-request interceptors
     * see a connection that knows only the transport (tests of the handlers alone).
     *
     * @param config the configuration
     */
    public ClientHandlers(SessionConfig config) {
        this(config, TransportOnly.of(config.transport()));
    }

    /**
     * Takes the handlers, the elicitation settings and the server-request interceptors of a session's configuration.
     *
     * @param config     the configuration
     * @param connection what the interceptors see of the connection
     */
    public ClientHandlers(SessionConfig config, McpConnection connection) {
        this.elicitation = config.elicitationHandler();
        this.urlMode = config.elicitationUrlMode();
        this.applyDefaults = config.applyElicitationDefaults();
        this.sampling = config.samplingHandler();
        this.roots = config.rootsHandler();
        this.interceptors = config.serverRequestInterceptors().isEmpty() ? null
                : config.serverRequestInterceptors().toArray(ServerRequestInterceptor[]::new);
        this.connection = connection;
    }

    /**
     * Parses and checks a request without calling its handler; the prepared answer runs the server-request
     * interceptors (if any) around the handler ({@link ServerRequestInterceptor}).
     *
     * @param method    a method this client {@link #has has} a handler for
     * @param params    the request's params as plain JSON, or {@code null}
     * @param requestId the server's id of a 2025-era request, or {@code null}
     * @param inputKey  the key of a 2026-era {@code inputRequests} entry, or {@code null}
     * @return the prepared request
     * @throws McpProtocolException     if the params are missing or malformed (the message names the method)
     * @throws NotDeclaredException     if the request needs a capability this client did not declare
     * @throws IllegalArgumentException if there is no handler for {@code method}
     */
    public Prepared prepare(String method, Map<String, Object> params, RequestId requestId, String inputKey) {
        Prepared prepared = prepare(method, params);
        if (interceptors == null) {
            return prepared;
        }
        ServerRequest request = requestId != null ? ServerRequest.ofRequest(method, params, requestId)
                : ServerRequest.ofInput(method, params, inputKey);
        return () -> new IncomingStep(this, 0, request, params, prepared).run();
    }

    /** One position in the chain of server-request interceptors of one request. */
    private static final class IncomingStep implements ServerRequestInterceptor.Chain {
        private final ClientHandlers owner;
        private final int index;
        private final ServerRequest request;
        private final Map<String, Object> original;
        private final Prepared prepared;
        /** What the last {@link #proceed} threw: it passes the interceptor that called it unchanged. */
        private Throwable passed;
        /** The answer the handler gave (checked), to know an answer an interceptor made. */
        private Object handlerAnswer;
        /** What the last {@link #proceed} returned: an interceptor that returns another answer made it. */
        private Object returned;
        /** The index of the interceptor that made the answer {@link #proceed} returned, or -1 (the handler's). */
        private int madeBy = -1;

        IncomingStep(ClientHandlers owner, int index, ServerRequest request, Map<String, Object> original,
                     Prepared prepared) {
            this.owner = owner;
            this.index = index;
            this.request = request;
            this.original = original;
            this.prepared = prepared;
        }

        /** Runs the chain from the outermost interceptor; an answer an interceptor made is checked as a handler's. */
        Object run() throws Exception {
            Map<String, Object> answer = proceed(request);
            if (answer == handlerAnswer || madeBy < 0) {
                return answer;
            }
            try {
                return owner.checkAnswer(request.method(), paramsOf(request), answer);
            } catch (InvalidAnswerException e) { // known as the answer of the interceptor that made it
                throw new McpInterceptorException(request.method(), madeBy + 1, owner.interceptors[madeBy],
                        new McpProtocolException(e.getMessage()));
            }
        }

        @Override
        public ServerRequest request() {
            return request;
        }

        @Override
        public Optional<McpContext> context() {
            return McpContext.current();
        }

        @Override
        public McpConnection connection() {
            return owner.connection;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Map<String, Object> proceed(ServerRequest next) throws Exception {
            Objects.requireNonNull(next, "request");
            if (!next.method().equals(request.method())) {
                throw new IllegalArgumentException("an interceptor may not change the method: " + request.method()
                        + " became " + next.method());
            }
            try {
                if (index == owner.interceptors.length) {
                    Map<String, Object> params = paramsOf(next);
                    Prepared p = params == original ? prepared : owner.prepare(next.method(), params);
                    Map<String, Object> answer = (Map<String, Object>) p.answer();
                    handlerAnswer = answer;
                    returned = answer;
                    madeBy = -1;
                    return answer;
                }
                Map<String, Object> answer = intercept(next);
                returned = answer;
                return answer;
            } catch (Exception | Error e) {
                passed = e;
                throw e;
            }
        }

        private Map<String, Object> intercept(ServerRequest next) throws Exception {
            ServerRequestInterceptor interceptor = owner.interceptors[index];
            IncomingStep inner = new IncomingStep(owner, index + 1, next, original, prepared);
            Map<String, Object> answer;
            try {
                answer = interceptor.intercept(inner);
            } catch (McpException | InterruptedException | Error e) {
                throw e;
            } catch (Exception e) {
                if (e == inner.passed) {
                    throw e; // the handler (or an inner interceptor's proceed) failed: passed on unchanged
                }
                throw new McpInterceptorException(next.method(), index + 1, interceptor, e);
            }
            if (answer == null) {
                throw new McpInterceptorException(next.method(), index + 1, interceptor,
                        new NullPointerException("intercept returned null"));
            }
            if (answer == inner.handlerAnswer) {
                handlerAnswer = answer;
            }
            madeBy = answer == inner.returned ? inner.madeBy : index;
            return answer;
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> paramsOf(ServerRequest r) {
            return r.params().map(p -> (Map<String, Object>) p).orElse(null);
        }
    }

    /**
     * Checks an answer an interceptor made instead of the handler, as the handler's answer is checked.
     *
     * @throws InvalidAnswerException if it cannot go on the wire
     */
    private Object checkAnswer(String method, Map<String, Object> params, Map<String, Object> answer) {
        try {
            return switch (method) {
                case ELICIT -> elicitAnswer(Json.convert(required(ELICIT, params), ElicitRequest.class,
                        ELICIT + " params"), Json.convert(answer, ElicitResult.class, "an interceptor's answer"));
                case SAMPLE -> sampleAnswer(Json.convert(answer, CreateMessageResult.class,
                        "an interceptor's answer"));
                default -> {
                    if (!(answer.get("roots") instanceof List<?> list)) {
                        throw new InvalidAnswerException("an interceptor's answer to roots/list has no roots list");
                    }
                    List<Root> typed = new ArrayList<>();
                    for (Object o : list) {
                        typed.add(o == null ? null : Json.convert(o, Root.class, "an interceptor's root"));
                    }
                    yield rootsAnswer(typed);
                }
            };
        } catch (McpProtocolException e) {
            throw new InvalidAnswerException("an interceptor's answer to " + method + " cannot be read: "
                    + e.getMessage());
        }
    }

    /** The connection of handlers used without a session: only the transport is known. */
    private record TransportOnly(dev.loommcp.spi.McpTransport wire) implements McpConnection {
        static McpConnection of(dev.loommcp.spi.McpTransport transport) {
            return new TransportOnly(transport);
        }

        @Override
        public Optional<dev.loommcp.config.Era> era() {
            return Optional.empty();
        }

        @Override
        public Optional<String> protocolVersion() {
            return Optional.empty();
        }

        @Override
        public Optional<String> sessionId() {
            return Optional.empty();
        }

        @Override
        public dev.loommcp.spi.TransportInfo transport() {
            return wire.info();
        }

        @Override
        public String server() {
            return wire.describe();
        }

        @Override
        public Optional<dev.loommcp.schema.Implementation> serverInfo() {
            return Optional.empty();
        }
    }

    /**
     * Returns whether {@code method} is one a server may ask of a client: elicitation, sampling or roots.
     *
     * @param method the method
     * @return {@code true} for {@value #ELICIT}, {@value #SAMPLE} and {@value #ROOTS}
     */
    public static boolean isClientMethod(String method) {
        return method != null && METHODS.contains(method);
    }

    /**
     * Returns whether the application registered a handler for {@code method} (and so declares its capability).
     *
     * @param method the method
     * @return {@code true} if a handler answers it; {@code false} for an unknown method
     */
    public boolean has(String method) {
        return method != null && switch (method) {
            case ELICIT -> elicitation != null;
            case SAMPLE -> sampling != null;
            case ROOTS -> roots != null;
            default -> false;
        };
    }

    /**
     * Parses and checks a request without calling its handler.
     *
     * @param method a method this client {@link #has has} a handler for
     * @param params the request's params as plain JSON, or {@code null}
     * @return the prepared request
     * @throws McpProtocolException     if the params are missing or malformed (the message names the method)
     * @throws NotDeclaredException     if the request needs a capability this client did not declare
     * @throws IllegalArgumentException if there is no handler for {@code method}
     */
    public Prepared prepare(String method, Map<String, Object> params) {
        if (!has(method)) {
            throw new IllegalArgumentException("no client handler for " + method);
        }
        return switch (method) {
            case ELICIT -> prepareElicit(params);
            case SAMPLE -> {
                CreateMessageRequest request = Json.convert(required(SAMPLE, params), CreateMessageRequest.class,
                        SAMPLE + " params");
                yield () -> sampleAnswer(sampling.createMessage(request));
            }
            default -> () -> rootsAnswer(roots.listRoots());
        };
    }

    private static Map<String, Object> required(String method, Map<String, Object> params) {
        if (params == null) {
            throw new McpProtocolException(method + " without params");
        }
        return params;
    }

    private Prepared prepareElicit(Map<String, Object> params) {
        ElicitRequest request = Json.convert(required(ELICIT, params), ElicitRequest.class, ELICIT + " params");
        String mode = request.mode();
        if (mode != null && !ElicitRequest.MODE_FORM.equals(mode) && !ElicitRequest.MODE_URL.equals(mode)) {
            throw new McpProtocolException(ELICIT + " with an unknown mode (neither form nor url)");
        }
        if (request.isUrlMode()) {
            if (!urlMode) {
                throw new NotDeclaredException("URL-mode elicitation was not declared by this client");
            }
            checkUrl(request.url());
        }
        return () -> elicitAnswer(request, elicitation.elicit(request));
    }

    /**
     * A URL-mode request must carry an absolute {@code https} URL (plain {@code http} only on a loopback host), with
     * a host and without user info, which the handler shows in full (and never opens by itself). Anything else
     * ({@code javascript:}, {@code file:}, {@code data:}, http to another host, {@code https://trusted@evil}) is
     * refused before the handler sees it: the server gets an invalid-params error naming the reason.
     */
    private static void checkUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new McpProtocolException("URL-mode " + ELICIT + " without a url");
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a url that is not a valid URI");
        }
        if (!u.isAbsolute()) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a url that is not absolute");
        }
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
        if (!"https".equals(scheme) && !"http".equals(scheme)) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a url of the scheme " + scheme
                    + ": refused, only https URLs are shown to the user (http only on a loopback host)");
        }
        if (u.getHost() == null) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a url without a host: refused");
        }
        if (u.getRawUserInfo() != null) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a url that carries user info (which "
                    + "disguises its host): refused");
        }
        if (!Hosts.isHttpsOrLoopbackHttp(u)) {
            throw new McpProtocolException("URL-mode " + ELICIT + " with a plain http url on the host "
                    + u.getHost() + ", which is not loopback: refused, " + Hosts.HTTPS_RULE);
        }
    }

    private Object elicitAnswer(ElicitRequest request, ElicitResult result) {
        if (result == null) {
            return plain("elicitation", ElicitResult.decline()); // no answer from the handler is a decline
        }
        if (!ACTIONS.contains(result.action())) {
            throw new InvalidAnswerException("the elicitation handler's action is not accept, decline or cancel");
        }
        boolean formAccept = ElicitResult.ACCEPT.equals(result.action()) && !request.isUrlMode();
        Map<String, Object> content = null;
        if (formAccept) {
            content = applyDefaults ? request.applyDefaults(result.content()) : result.content();
            checkContent(content);
        }
        // content goes out only with an accepted form: never data the user did not submit
        return plain("elicitation", new ElicitResult(result.action(), content, result.meta()));
    }

    /** Form content values are strings, numbers, booleans or lists of strings (ElicitResult in the schema). */
    private static void checkContent(Map<String, Object> content) {
        if (content == null) {
            return;
        }
        for (Map.Entry<String, Object> e : content.entrySet()) {
            Object v = e.getValue();
            boolean ok = v instanceof String || v instanceof Number || v instanceof Boolean
                    || v instanceof List<?> list && list.stream().allMatch(String.class::isInstance);
            if (e.getKey() == null || !ok) {
                throw new InvalidAnswerException("the elicitation handler's content has a value that is not a "
                        + "string, number, boolean or list of strings" + (e.getKey() == null ? ""
                        : " (field '" + e.getKey() + "')"));
            }
        }
    }

    private static Object sampleAnswer(CreateMessageResult result) {
        if (result == null) {
            throw new InvalidAnswerException("the sampling handler returned no result");
        }
        if (!ROLES.contains(result.role())) {
            throw new InvalidAnswerException("the sampling handler's role is not user or assistant");
        }
        if (result.model() == null || result.content() == null) {
            throw new InvalidAnswerException("the sampling handler's result has no " + (result.model() == null
                    ? "model" : "content"));
        }
        return plain("sampling", result);
    }

    private static Object rootsAnswer(List<Root> list) {
        List<Root> roots = list == null ? new ArrayList<>() : new ArrayList<>(list); // List.of() rejects contains(null)
        if (roots.contains(null)) {
            throw new InvalidAnswerException("the roots handler's list contains null");
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("roots", plain("roots", roots));
        return result;
    }

    /** A handler's answer as plain JSON; one that holds something not JSON is an invalid answer, with its path. */
    private static Object plain(String handler, Object answer) {
        try {
            return Json.toPlain(answer);
        } catch (IllegalArgumentException e) {
            throw new InvalidAnswerException("the " + handler + " handler's answer cannot be sent: " + e.getMessage());
        }
    }
}
