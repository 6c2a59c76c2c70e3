package dev.loommcp.it.policies;

import dev.loommcp.McpVetoedException;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;
import dev.loommcp.schema.Tool;
import dev.loommcp.schema.ToolAnnotations;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Asks a person before a tool that may be destructive runs: its annotations say {@code destructiveHint: true}, or
 * say nothing (the spec's default for a tool that is not read-only), or the client has not listed the tool yet. The
 * caller's virtual thread waits for the answer until the call's deadline passes or the call is cancelled.
 */
public final class DestructiveToolApproval implements McpInterceptor {

    /** Shows the request to a person; the future completes with {@code true} when they approve it. */
    @FunctionalInterface
    public interface Approver {
        CompletableFuture<Boolean> ask(String server, String tool, Map<String, Object> arguments);
    }

    private final Approver approver;

    public DestructiveToolApproval(Approver approver) {
        this.approver = approver;
    }

    static boolean mayBeDestructive(Tool tool) {
        ToolAnnotations a = tool.annotations();
        if (a == null) {
            return true;
        }
        return !Boolean.TRUE.equals(a.readOnlyHint()) && !Boolean.FALSE.equals(a.destructiveHint());
    }

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        String name = chain.request().toolName().orElse(null);
        if (name == null || !chain.tool().map(DestructiveToolApproval::mayBeDestructive).orElse(true)) {
            return chain.proceed(chain.request());
        }
        Map<String, Object> arguments = chain.request().toolArguments().orElse(Map.of());
        // McpTimeoutException at the deadline, McpCancelledException when the call is cancelled
        boolean approved = chain.await(approver.ask(chain.connection().server(), name, arguments));
        if (!approved) {
            throw new McpVetoedException(chain.request().method(), "tool '" + name + "' was not approved");
        }
        return chain.proceed(chain.request());
    }
}
