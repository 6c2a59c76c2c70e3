package dev.loommcp.internal.session;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.McpCancelledException;
import dev.loommcp.intercept.OutgoingRequest;
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
 * replay policy allows), to the {@link CallLife}; through the client's {@link Interception} first when it has
 * interceptors. Also the path of a client not connected yet, whose calls fail
 * there. Stateless; thread-safe.
 */
final class LegacyWire implements WirePath, Interception.WireStep {

    private final CallLife calls;
    private final SessionRenewal renewal;
    /** The client's resilience policy, or {@code null} for none. */
    private final CallGuard guard;
    /** The client's interceptors, or {@code null} for none (the direct path). */
    private final Interception interception;

    /**
     * @param guard        the client's resilience policy, or {@code null} for none
     * @param interception the client's interceptors, or {@code null} for none
     */
    LegacyWire(CallLife calls, SessionRenewal renewal, CallGuard guard, Interception interception) {
        this.calls = calls;
        this.renewal = renewal;
        this.guard = guard;
        this.interception = interception;
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
            Interception chain = interception;
            if (chain == null) {
                Deadline deadline = calls.deadlineIn(scope, options, start);
                if (guard == null) {
                    return renewal.call(method, params, options, deadline, onSent); // nothing in the way: no frame added
                }
                return guarded(method, params, options, deadline, scope, onSent);
            }
            calls.ensureConnected(method); // interceptors see only requests of a connected client
            return chain.run(method, params, options, scope, start, onSent, this);
        } catch (McpCancelledException e) {
            // close() cancels the client's tree, a wait of the guard with it: the caller learns of the close
            throw calls.closedInsteadOfCancelled(method, e);
        }
    }

    /** The rest of a request after the interceptors: the resilience policy, the renewal and the send. */
    @Override
    public Object send(OutgoingRequest request, Interception.Step step) throws InterruptedException {
        RequestOptions options = request.options();
        return guarded(request.method(), step.paramsOf(request), options,
                calls.deadlineIn(step.scope, options, step.start), step.scope, step.onSent);
    }

    /** The renewal and the send, through the resilience policy when the client has one. */
    private Object guarded(String method, Map<String, Object> params, RequestOptions options, Deadline deadline,
                           Scope<?, ?> scope, Consumer<RequestId> onSent) throws InterruptedException {
        if (guard == null) {
            return renewal.call(method, params, options, deadline, onSent);
        }
        return guard.call(new CallGuard.Request(method, params, deadline, options.token().orElse(null), scope),
                attempt -> renewal.call(method, params, options, deadline, onSent));
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
