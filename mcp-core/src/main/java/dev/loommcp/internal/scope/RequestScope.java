package dev.loommcp.internal.scope;

import dev.loommcp.jsonrpc.RequestId;

import java.util.Objects;

/**
 * What a request's {@link Scope} stands for (its {@linkplain Scope#attachment() attachment}): the method, the id of
 * the request on the wire now (a corrective retry or an input round sends a new one) and which client sent it.
 * Code running inside the scope (a handler, a progress listener, a nested call on any client) reads it through
 * {@code McpContext.current()}. Thread-safe.
 */
public final class RequestScope implements CancelAware {

    private final Object client;
    private final String method;
    private final String server;
    private volatile RequestId id;
    /** Told when the scope is cancelled: the wait of the request now on the wire; {@code null} between sends. */
    private volatile java.util.function.Consumer<String> waiting;

    /**
     * @param client the session that sends the request (identity only: which client a scope belongs to)
     * @param method the JSON-RPC method
     * @param server the transport's description of the server, for messages
     */
    public RequestScope(Object client, String method, String server) {
        this.client = Objects.requireNonNull(client, "client");
        this.method = Objects.requireNonNull(method, "method");
        this.server = server;
    }

    /**
     * Returns the request scope of {@code client} the calling thread is in: the innermost scope of the calling thread
     * whose attachment is a request of that client; {@code null} when none.
     *
     * @param client the session
     * @return the scope, or {@code null}
     */
    public static Scope<?, ?> currentOf(Object client) {
        for (Scope<?, ?> s = ScopeThreads.current(); s != null; s = s.parent()) {
            if (s.attachment() instanceof RequestScope r && r.client == client) {
                return s;
            }
        }
        return null;
    }

    /**
     * Returns the innermost request scope the calling thread is in, of any client; {@code null} when none.
     *
     * @return the scope, or {@code null}
     */
    public static Scope<?, ?> current() {
        for (Scope<?, ?> s = ScopeThreads.current(); s != null; s = s.parent()) {
            if (s.attachment() instanceof RequestScope) {
                return s;
            }
        }
        return null;
    }

    /** Returns whether {@code client} sends this request. */
    public boolean isOf(Object client) {
        return this.client == client;
    }

    /**
     * Sets what ends the wait of the request now on the wire when the scope is cancelled (given what ended it), or
     * clears it; when the scope was cancelled already, it runs at once.
     *
     * @param scope the scope this is attached to
     * @param end   the action, or {@code null} to clear
     */
    public void waiting(Scope<?, ?> scope, java.util.function.Consumer<String> end) {
        waiting = end;
        if (end != null && scope.isCancelled()) {
            end.accept(scope.endedBy());
        }
    }

    @Override
    public void scopeCancelled(Scope<?, ?> scope) {
        java.util.function.Consumer<String> end = waiting;
        if (end != null) {
            end.accept(scope.endedBy());
        }
    }

    /** Records the id of the request now on the wire. */
    public void sent(RequestId requestId) {
        this.id = requestId;
    }

    /** Returns the id of the request on the wire now, or {@code null} before the first send. */
    public RequestId id() {
        return id;
    }

    /** Returns the JSON-RPC method. */
    public String method() {
        return method;
    }

    /** Returns the transport's description of the server. */
    public String server() {
        return server;
    }
}
