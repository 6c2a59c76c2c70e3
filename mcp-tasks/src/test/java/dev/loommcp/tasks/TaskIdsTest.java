package dev.loommcp.tasks;

import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Task handles made from an id (break test item 13): empty and over-long ids are refused, a status not yet known is
 * {@link TaskStatus#UNKNOWN} (not {@code working}), an id whose first poll the server refuses fails the wait at once
 * as {@code get} does, and ids are shown escaped and capped in messages and {@code toString()}.
 */
@ExtendWith(LeakCheck.class)
class TaskIdsTest {

    /** A server-chosen id with a line break, a NUL and 20,000 more characters. */
    private static final String EVIL_ID = "../../x\n\u0000" + "A".repeat(20_000);

    private final FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
    private final McpTasks tasks = McpTasks.newBuilder().minPollInterval(Duration.ofMillis(10)).build();

    {
        tasks.support().bind(server);
    }

    @AfterEach
    void close() {
        server.close();
        tasks.support().clientClosed();
    }

    @Test
    void emptyAndOverLongIdsAreRefusedAtOnce() {
        assertThatThrownBy(() -> tasks.task("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 1024 characters");
        assertThatThrownBy(() -> tasks.task("x".repeat(1025))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not 1025");
        assertThat(tasks.task("x".repeat(1024)).id()).hasSize(1024);
        assertThat(server.sent("tasks/get")).isEmpty();
    }

    @Test
    void aTaskNothingIsKnownOfIsUnknownNotWorking() throws Exception {
        McpTask t = tasks.task("printed-elsewhere");
        assertThat(t.status()).isEqualTo(TaskStatus.UNKNOWN);
        assertThat(t.status().isTerminal()).isFalse();
        assertThatThrownBy(() -> TaskStatus.parse("unknown")).isInstanceOf(IllegalArgumentException.class);
        server.script("printed-elsewhere", task("working"));
        assertThat(t.get(RequestOptions.DEFAULT).status()).isEqualTo(TaskStatus.WORKING);
    }

    @Test
    void awaitFailsAtOnceWhenTheServerRefusesTheFirstPollOfAnIdAsGetDoes() throws Exception {
        server.script("too-odd", new McpTransportException("POST tasks/get: the server closed the connection"));
        McpTask t = tasks.task("too-odd");
        assertThatThrownBy(() -> t.await(Deadline.after(Duration.ofSeconds(5))))
                .isInstanceOf(McpTransportException.class).hasMessageContaining("closed the connection");
        assertThat(server.sent("tasks/get")).hasSize(1);
    }

    @Test
    void idsAreShownEscapedAndCappedInMessagesAndToString() throws Exception {
        McpTask unknown = tasks.task(EVIL_ID.substring(0, 1000));
        assertThat(unknown.toString()).doesNotContain("\n", "\u0000").contains("\\u000a", "\\u0000")
                .hasSizeLessThan(120);
        assertThatThrownBy(() -> unknown.get(RequestOptions.DEFAULT)).isInstanceOf(McpTaskNotFoundException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\u0000").hasSizeLessThan(300));

        server.script(EVIL_ID, task("working"));
        McpTask served = tasks.callToolAsTask("slow_compute", java.util.Map.of("script",
                java.util.List.of(task("working"))), RequestOptions.DEFAULT);
        assertThat(served.toString()).hasSizeLessThan(120);
        McpTask evil = TaskHandleAccess.ofId(tasks, EVIL_ID);
        assertThatThrownBy(() -> evil.await(Deadline.after(Duration.ofMillis(300))))
                .isInstanceOf(McpTimeoutException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\u0000").contains("\\u000a")
                        .hasSizeLessThan(300));
        assertThat(evil.toString()).doesNotContain("\n").hasSizeLessThan(120);
    }

    /** A handle for an id beyond what {@link McpTasks#task} takes (as a server may issue one). */
    private static final class TaskHandleAccess {
        static McpTask ofId(McpTasks tasks, String id) {
            return TaskHandle.ofId(tasks, TaskSnapshot.of(id, Era.MODERN, TaskStatus.WORKING), "slow_compute", null);
        }
    }
}
