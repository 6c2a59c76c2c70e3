package dev.loommcp.intercept;

import dev.loommcp.RequestOptions;
import org.jspecify.annotations.Nullable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the client is about to send, as an {@link McpInterceptor} sees it: the JSON-RPC method, the params as
 * plain JSON (with the caller's and the persistent tool {@code _meta} merged in; not yet the 2026 era's envelope or a
 * progress token, which the engine adds below the chain), and the call's {@link RequestOptions}. Typed accessors read
 * the parts an interceptor usually needs (the tool's name and arguments, the prompt's name, the resource's URI, the
 * {@code _meta}); the {@code with...} methods return a rewritten copy to pass to
 * {@link McpInterceptor.Chain#proceed}.
 *
 * <p>Immutable: the params map is read-only (nested maps are the caller's; do not change them, rewrite with
 * {@link #withParams}). Thread-safe.
 */
public final class OutgoingRequest {

    private final String method;
    private final @Nullable Map<String, @Nullable Object> params;
    private final RequestOptions options;

    private OutgoingRequest(String method, @Nullable Map<String, @Nullable Object> params, RequestOptions options) {
        this.method = method;
        this.params = params;
        this.options = options;
    }

    /**
     * Creates a request (the engine makes them; tests of interceptors may too).
     *
     * @param method  the JSON-RPC method
     * @param params  the params as plain JSON, or {@code null} for none; kept read-only (not copied deeply)
     * @param options the call's options
     * @return the request
     * @throws NullPointerException if {@code method} or {@code options} is {@code null}
     */
    public static OutgoingRequest of(String method, @Nullable Map<String, @Nullable Object> params,
                                     RequestOptions options) {
        return new OutgoingRequest(Objects.requireNonNull(method, "method"),
                JsonParams.readOnly(params), Objects.requireNonNull(options,
                        "options"));
    }

    /**
     * Returns the JSON-RPC method, for example {@code tools/call}.
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * Returns the params as they will be sent (read-only), or empty for a request without params.
     *
     * @return the params, or empty
     */
    public Optional<Map<String, @Nullable Object>> params() {
        return Optional.ofNullable(params);
    }

    /**
     * Returns the call's options: timeout or deadline, token, progress listener, {@code _meta}. Their {@code _meta}
     * is in the params already; changing it here changes nothing on the wire (use {@link #withMeta}).
     *
     * @return the options
     */
    public RequestOptions options() {
        return options;
    }

    /**
     * Returns the name of the tool a {@code tools/call} calls ({@code params.name}).
     *
     * @return the tool's name; empty for another method
     */
    public Optional<String> toolName() {
        return method.equals("tools/call") ? stringParam("name") : Optional.empty();
    }

    /**
     * Returns the arguments of a {@code tools/call} ({@code params.arguments}), read-only.
     *
     * @return the arguments; empty for another method or a call without arguments
     */
    public Optional<Map<String, @Nullable Object>> toolArguments() {
        if (!method.equals("tools/call") || params == null
                || !(params.get("arguments") instanceof Map<?, ?> arguments)) {
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> typed = (Map<String, @Nullable Object>) arguments;
        return Optional.of(Collections.unmodifiableMap(typed));
    }

    /**
     * Returns the name of the prompt a {@code prompts/get} reads ({@code params.name}).
     *
     * @return the prompt's name; empty for another method
     */
    public Optional<String> promptName() {
        return method.equals("prompts/get") ? stringParam("name") : Optional.empty();
    }

    /**
     * Returns the resource URI of a {@code resources/read}, {@code resources/subscribe} or
     * {@code resources/unsubscribe} ({@code params.uri}).
     *
     * @return the URI; empty for another method
     */
    public Optional<String> resourceUri() {
        return method.startsWith("resources/") ? stringParam("uri") : Optional.empty();
    }

    /**
     * Returns the request's {@code params._meta} (read-only): the caller's {@link RequestOptions#meta()} merged over
     * the persistent tool {@code _meta}, plus what interceptors added.
     *
     * @return the {@code _meta}; empty (a map) when there is none
     */
    public Map<String, @Nullable Object> meta() {
        return JsonParams.meta(params);
    }

    /**
     * Returns this request with other params (the method stays).
     *
     * @param newParams the params as plain JSON, or {@code null} for none
     * @return the rewritten request
     */
    public OutgoingRequest withParams(@Nullable Map<String, @Nullable Object> newParams) {
        return new OutgoingRequest(method, newParams == null ? null : Collections.unmodifiableMap(
                new LinkedHashMap<>(newParams)), options);
    }

    /**
     * Returns this {@code tools/call} with other arguments ({@code params.arguments}; name and {@code _meta} stay).
     *
     * @param arguments the arguments as plain JSON, or {@code null} to send none
     * @return the rewritten request
     * @throws IllegalStateException if the request is not a {@code tools/call}
     */
    public OutgoingRequest withToolArguments(@Nullable Map<String, @Nullable Object> arguments) {
        if (!method.equals("tools/call")) {
            throw new IllegalStateException("withToolArguments is for tools/call, not " + method);
        }
        Map<String, @Nullable Object> p = copyOfParams();
        if (arguments == null) {
            p.remove("arguments");
        } else {
            p.put("arguments", arguments);
        }
        return new OutgoingRequest(method, Collections.unmodifiableMap(p), options);
    }

    /**
     * Returns this request with {@code entries} merged into {@code params._meta} key by key, over what is there
     * (SEP-414: for example {@code traceparent}, {@code tracestate}, {@code baggage}, whose keys take no prefix). A
     * key whose value is {@code null} is sent as JSON {@code null}.
     *
     * @param entries the keys and values to put
     * @return the rewritten request
     * @throws NullPointerException if {@code entries} or one of its keys is {@code null}
     */
    public OutgoingRequest withMeta(Map<String, @Nullable Object> entries) {
        Objects.requireNonNull(entries, "entries");
        Map<String, @Nullable Object> meta = new LinkedHashMap<>(meta());
        for (Map.Entry<String, @Nullable Object> e : entries.entrySet()) {
            meta.put(Objects.requireNonNull(e.getKey(), "a key of entries"), e.getValue());
        }
        Map<String, @Nullable Object> p = copyOfParams();
        p.put("_meta", Collections.unmodifiableMap(meta));
        return new OutgoingRequest(method, Collections.unmodifiableMap(p), options);
    }

    /**
     * Returns this request with other options: another token or progress listener. Their {@code _meta} is not put
     * into the params (use {@link #withMeta}). The request's deadline was fixed when the call started (its scope
     * holds it): a timeout or deadline in {@code newOptions} changes it only for a call that resets its timeout on
     * progress, and never beyond the scope's.
     *
     * @param newOptions the options
     * @return the rewritten request
     * @throws NullPointerException if {@code newOptions} is {@code null}
     */
    public OutgoingRequest withOptions(RequestOptions newOptions) {
        return new OutgoingRequest(method, params, Objects.requireNonNull(newOptions, "newOptions"));
    }

    private Optional<String> stringParam(String key) {
        return params != null && params.get(key) instanceof String s ? Optional.of(s) : Optional.empty();
    }

    private Map<String, @Nullable Object> copyOfParams() {
        return params == null ? new LinkedHashMap<>() : new LinkedHashMap<>(params);
    }

    /** The method and the tool or prompt: never arguments, URIs or other payloads. */
    @Override
    public String toString() {
        String target = toolName().or(this::promptName).orElse(null);
        return "OutgoingRequest[" + method + (target == null ? "" : " " + target) + "]";
    }
}
