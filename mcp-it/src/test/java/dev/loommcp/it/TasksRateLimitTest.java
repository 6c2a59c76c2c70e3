package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpRpcException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.testkit.TasksFixture;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * C.5.6 "servers MAY rate-limit faster polling", against the tasks fixture in {@code --rate-limit} mode (a
 * {@code tasks/get} sooner than half the task's interval after the previous accepted one is refused with
 * {@code -32000 "rate limit: ..."}): the driver's own polls are never refused, and a refused poll does not end the
 * wait.
 */
class TasksRateLimitTest extends TaskClients {

    @Override
    protected McpTransport newTransport() {
        return StdioTransport.newBuilder(TasksFixture.stdioCommand("--rate-limit")).build();
    }

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.MODERN;
    }

    @Test
    void theDriverKeepsWithinTheLimitAndARefusedPollDoesNotEndTheWait() throws Exception {
        Connected c = connect(t -> t.push(false), b -> { });
        // ten tasks at 300 ms: the driver alone never comes sooner than the interval, so nothing is refused
        for (int i = 0; i < 10; i++) {
            c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 1, "pollMs", 300), RequestOptions.DEFAULT);
        }
        McpTask probe = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 2, "pollMs", 300),
                RequestOptions.DEFAULT);
        probe.await(Deadline.after(Duration.ofSeconds(60)));
        Map<String, Object> stats = TasksExtensionContract.pollStats(c);
        assertThat(((Number) stats.get("limited")).intValue()).as("%s", stats).isZero();

        // a poll of our own, right after the creation, is refused; the wait goes on and ends with the result
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 3, "pollMs", 2000),
                RequestOptions.DEFAULT);
        assertThatThrownBy(() -> task.get(RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(McpRpcException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32000);
                    assertThat(e.errorMessage()).contains("rate limit");
                });
        CallToolResult r = task.await(Deadline.after(Duration.ofSeconds(60)));
        assertThat(TasksExtensionContract.text(r)).isEqualTo("computed after 3000 ms");
        assertThat(task.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(((Number) TasksExtensionContract.pollStats(c).get("limited")).intValue()).isEqualTo(1);
    }
}
