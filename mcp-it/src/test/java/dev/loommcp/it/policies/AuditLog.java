package dev.loommcp.it.policies;

import dev.loommcp.McpContext;
import dev.loommcp.McpException;
import dev.loommcp.McpRpcException;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;

import java.util.function.Consumer;

/**
 * Writes one audit line per request: server, method, tool, JSON-RPC id, outcome and duration. No arguments or
 * results: they may hold secrets. Register it first, so that it also records what inner interceptors refused.
 */
public final class AuditLog implements McpInterceptor {

    private final Consumer<String> sink;

    public AuditLog(Consumer<String> sink) {
        this.sink = sink;
    }

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        long start = System.nanoTime();
        String outcome = "interrupted";
        try {
            McpResponse response = chain.proceed(chain.request());
            outcome = !response.fromServer() ? "answered-locally" : response.isToolError() ? "tool-error" : "ok";
            return response;
        } catch (McpRpcException e) {
            outcome = "rpc-error " + e.code();
            throw e;
        } catch (McpException e) {
            outcome = e.getClass().getSimpleName();
            throw e;
        } finally {
            McpContext request = chain.context();
            sink.accept("audit server=" + chain.connection().server()
                    + " method=" + chain.request().method()
                    + " tool=" + chain.request().toolName().orElse("-")
                    + " id=" + request.requestId().map(Object::toString).orElse("-")
                    + " outcome=" + outcome
                    + " ms=" + (System.nanoTime() - start) / 1_000_000);
        }
    }
}
