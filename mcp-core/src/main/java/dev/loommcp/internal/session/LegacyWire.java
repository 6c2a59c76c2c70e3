package dev.loommcp.internal.session;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.McpCancelledException;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The legacy era's wire path (MCP 2025-11-25 and earlier): each request in its scope, through the
 * client's {@link CallGuard} (its resilience policy: rate limit, circuit breaker, budget, retry), through the
 * {@link SessionRenewal} (a session the transport reports expired is renewed, and the request sent again where the
 * replay policy allows), to the {@link CallLife}. Also the path of a client not connected yet, whose calls fail
 * there. Stateless; thread-safe.
 */
final class LegacyWire implements WirePath {

    private final CallLife calls;
    private final SessionRenewal renewal;
    /** The client's resilience policy, or {@code null} for none. */
    private final CallGuard guard;

    /** @param guard the client's resilience policy, or {@code null} for none */
    LegacyWire(CallLife calls, SessionRenewal renewal, CallGuard guard) {
        this.calls = calls;
        this.renewal = renewal;
        this.guard = guard;
    }

    @Override
    public Era era() {
        return Era.LEGACY;
    }

    @Override
    public Object call(String method, Map<String, Object> params, RequestOptions options, Consumer<RequestId> onSent)
            throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        Deadline start = Deadline.ofNanoTime(System.nanoTime());
        try (Scope<Object, Void> scope = calls.openScope(method, options, start)) {
            Deadline deadline = calls.deadlineIn(scope, options, start);
            if (guard == null) {
                return renewal.call(method, params, options, deadline, onSent); // no policy: no frame added
            }
            return guard.call(new CallGuard.Request(method, params, deadline, options.token().orElse(null), scope),
                    attempt -> renewal.call(method, params, options, deadline, onSent));
        } catch (McpCancelledException e) {
            // close() cancels the client's tree, a wait of the guard with it: the caller learns of the close
            throw calls.closedInsteadOfCancelled(method, e);
        }
    }

    @Override
    public Object callTool(String name, Map<String, Object> params, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        return call("tools/call", params, options, null);
    }

    @Override
    public void notify(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        calls.notify(method, params, options, null);
    }

    @Override
    public boolean routesToolHeaders() {
        return false;
    }
}
