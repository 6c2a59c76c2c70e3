package dev.loommcp.internal.session;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The legacy era's wire path (MCP 2025-11-25 and earlier): each request in its scope, through the
 * {@link SessionRenewal} (a session the transport reports expired is renewed, and the request sent again where the
 * replay policy allows), to the {@link CallLife}. Also the path of a client not connected yet, whose calls fail
 * there. Stateless; thread-safe.
 */
final class LegacyWire implements WirePath {

    private final CallLife calls;
    private final SessionRenewal renewal;

    LegacyWire(CallLife calls, SessionRenewal renewal) {
        this.calls = calls;
        this.renewal = renewal;
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
            return renewal.call(method, params, options, calls.deadlineIn(scope, options, start), onSent);
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
