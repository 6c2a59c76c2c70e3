package dev.loommcp.intercept;

import dev.loommcp.config.Era;
import dev.loommcp.jsonrpc.RequestId;
import org.jspecify.annotations.Nullable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the server asks of the client, as a {@link ServerRequestInterceptor} sees it: {@code sampling/createMessage},
 * {@code elicitation/create} or {@code roots/list}, with its params as plain JSON. In the 2025 era it arrived as a
 * JSON-RPC request of its own ({@link #requestId()}); in the 2026 era it is one entry of an {@code input_required}
 * answer's {@code inputRequests} ({@link #inputKey()}), answered inside the call that got that answer
 * ({@link dev.loommcp.McpContext#current()} is that call).
 *
 * <p>Immutable: the params map is read-only. Thread-safe.
 */
public final class ServerRequest {

    private final String method;
    private final @Nullable Map<String, @Nullable Object> params;
    private final Era era;
    private final @Nullable RequestId requestId;
    private final @Nullable String inputKey;

    private ServerRequest(String method, @Nullable Map<String, @Nullable Object> params, Era era,
                          @Nullable RequestId requestId, @Nullable String inputKey) {
        this.method = method;
        this.params = params;
        this.era = era;
        this.requestId = requestId;
        this.inputKey = inputKey;
    }

    /**
     * Creates a 2025-era server request (the engine makes them; tests of interceptors may too).
     *
     * @param method    the method
     * @param params    the params, or {@code null}
     * @param requestId the server's JSON-RPC id of the request
     * @return the request
     * @throws NullPointerException if {@code method} or {@code requestId} is {@code null}
     */
    public static ServerRequest ofRequest(String method, @Nullable Map<String, @Nullable Object> params,
                                          RequestId requestId) {
        return new ServerRequest(Objects.requireNonNull(method, "method"), JsonParams.readOnly(params), Era.LEGACY,
                Objects.requireNonNull(requestId, "requestId"), null);
    }

    /**
     * Creates a 2026-era input request, one entry of {@code inputRequests}.
     *
     * @param method   the method
     * @param params   the params, or {@code null}
     * @param inputKey the entry's key in {@code inputRequests}
     * @return the request
     * @throws NullPointerException if {@code method} or {@code inputKey} is {@code null}
     */
    public static ServerRequest ofInput(String method, @Nullable Map<String, @Nullable Object> params,
                                        String inputKey) {
        return new ServerRequest(Objects.requireNonNull(method, "method"), JsonParams.readOnly(params), Era.MODERN, null,
                Objects.requireNonNull(inputKey, "inputKey"));
    }

    /**
     * Returns the method: {@code sampling/createMessage}, {@code elicitation/create} or {@code roots/list}.
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * Returns the params as the server sent them (read-only), or empty for none.
     *
     * @return the params, or empty
     */
    public Optional<Map<String, @Nullable Object>> params() {
        return Optional.ofNullable(params);
    }

    /**
     * Returns the era it came in: {@link Era#LEGACY} for a server request, {@link Era#MODERN} for an
     * {@code inputRequests} entry.
     *
     * @return the era
     */
    public Era era() {
        return era;
    }

    /**
     * Returns the server's JSON-RPC id of a 2025-era server request.
     *
     * @return the id; empty for a 2026-era input request
     */
    public Optional<RequestId> requestId() {
        return Optional.ofNullable(requestId);
    }

    /**
     * Returns the key of a 2026-era input request in its {@code inputRequests}.
     *
     * @return the key; empty for a 2025-era server request
     */
    public Optional<String> inputKey() {
        return Optional.ofNullable(inputKey);
    }

    /**
     * Returns the {@code params._meta} the server sent (read-only; for example a {@code traceparent} to continue).
     *
     * @return the {@code _meta}; empty (a map) when there is none
     */
    public Map<String, @Nullable Object> meta() {
        return JsonParams.meta(params);
    }

    /**
     * Returns this request with other params, for the handler to see (the method, era and id stay). The params are
     * parsed and checked again as the server's would be.
     *
     * @param newParams the params, or {@code null}
     * @return the rewritten request
     */
    public ServerRequest withParams(@Nullable Map<String, @Nullable Object> newParams) {
        return new ServerRequest(method, newParams == null ? null : Collections.unmodifiableMap(
                new LinkedHashMap<>(newParams)), era, requestId, inputKey);
    }

    /** The method, era and id or key: never params. */
    @Override
    public String toString() {
        return "ServerRequest[" + method + (requestId != null ? " id " + requestId : " input '" + inputKey + "'")
                + "]";
    }
}
