package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.schema.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of a server's tool refresh ({@link ToolRefresh}) on its own, with a stand-in for the server whose
 * worker threads are recorded instead of started: a notification of an older generation or of a closed server is
 * dropped, one heard while starting is kept for the start to re-list, and a flood of notifications while one re-list
 * is under way starts one worker. The re-list itself against a server is covered by {@link McpServersHardeningTest}
 * and {@link McpServersListenerTest}.
 */
class ToolRefreshTest {

    private final ReentrantLock lock = new ReentrantLock();
    private final List<Runnable> workers = new ArrayList<>();
    private int generation = 1;
    private ServerState state = ServerState.CONNECTING;
    private int published;
    private final ToolRefresh refresh = new ToolRefresh(lock, "alpha",
            new HostSettings(Duration.ofSeconds(5), Duration.ofSeconds(5), RestartPolicy.NEVER,
                    new McpServersListener() { }, (config, builder) -> { }, (config, builder) -> { }, null, null, true,
                    dev.loommcp.policy.ResiliencePolicy.NONE, java.util.Map.of()),
            () -> generation, () -> state, () -> null, () -> published++, (purpose, task) -> workers.add(task));

    private boolean started(int gen, List<Tool> listed) {
        lock.lock();
        try {
            return refresh.started(gen, listed);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void aNotificationHeardWhileStartingIsReListedOnceTheStartIsReady() {
        refresh.listChanged(1);
        assertThat(workers).isEmpty();
        List<Tool> listed = List.of(Tool.of("echo", null, Map.of("type", "object")));
        assertThat(started(1, listed)).as("the start re-lists: its listing may predate the change").isTrue();
        assertThat(refresh.tools()).isEqualTo(listed);
        assertThat(started(1, listed)).as("once").isFalse();
    }

    @Test
    void aNotificationOfAnOlderGenerationOrAClosedServerIsDropped() {
        state = ServerState.READY;
        generation = 2;
        refresh.listChanged(1);
        assertThat(workers).isEmpty();
        state = ServerState.CLOSED;
        refresh.listChanged(2);
        assertThat(workers).isEmpty();
        assertThat(started(2, List.of())).as("nothing deferred either").isFalse();
    }

    @Test
    void aFloodWhileAReListRunsStartsOneWorkerAndTheNextNotificationAnother() {
        state = ServerState.READY;
        for (int i = 0; i < 50; i++) {
            refresh.listChanged(1);
        }
        assertThat(workers).hasSize(1);
        // the worker finds the server no longer ready (a restart lists anyway): it ends without listing
        state = ServerState.RESTARTING;
        workers.getFirst().run();
        assertThat(published).isZero();
        state = ServerState.READY;
        refresh.listChanged(1);
        assertThat(workers).as("the ended worker no longer coalesces").hasSize(2);
    }
}
