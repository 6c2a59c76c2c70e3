package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link TaskSnapshot}'s named factories and builder: what each sets, what stays absent, copies and checks. */
class TaskSnapshotTest {

    @Test
    void ofSetsTheStatusAndNothingElse() {
        TaskSnapshot s = TaskSnapshot.of("t1", Era.MODERN, TaskStatus.WORKING);
        assertThat(s).isEqualTo(new TaskSnapshot("t1", Era.MODERN, TaskStatus.WORKING, null, null, null, null, null,
                Map.of(), null, null));
        assertThat(s.inputRequests()).isEmpty();
    }

    @Test
    void completedAndFailedCarryTheirOutcome() {
        Map<String, Object> result = Map.of("content", java.util.List.of());
        TaskSnapshot done = TaskSnapshot.completed("t1", Era.LEGACY, result);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.result()).isEqualTo(result);
        assertThat(done.error()).isNull();
        JsonRpcError boom = JsonRpcError.of(-32603, "boom");
        TaskSnapshot failed = TaskSnapshot.failed("t2", Era.MODERN, boom);
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.error()).isEqualTo(boom);
        assertThat(failed.result()).isNull();
        assertThatThrownBy(() -> TaskSnapshot.completed("t1", Era.LEGACY, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> TaskSnapshot.failed("t1", Era.LEGACY, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> TaskSnapshot.of(null, Era.LEGACY, TaskStatus.WORKING))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theBuilderSetsEachFieldAndToBuilderStartsFromASnapshot() {
        Instant created = Instant.parse("2026-12-01T00:00:00Z");
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("k", Map.of("method", "elicitation/create"));
        TaskSnapshot s = TaskSnapshot.newBuilder("t1", Era.MODERN, TaskStatus.INPUT_REQUIRED).statusMessage("asks")
                .createdAt(created).lastUpdatedAt(created.plusSeconds(1)).ttl(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500)).inputRequests(inputs).build();
        inputs.clear();
        assertThat(s.inputRequests()).as("copied").containsOnlyKeys("k");
        assertThat(s.statusMessage()).isEqualTo("asks");
        assertThat(s.createdAt()).isEqualTo(created);
        assertThat(s.lastUpdatedAt()).isEqualTo(created.plusSeconds(1));
        assertThat(s.ttl()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.pollInterval()).isEqualTo(Duration.ofMillis(500));
        TaskSnapshot next = s.toBuilder().status(TaskStatus.WORKING).inputRequests(null).build();
        assertThat(next).isEqualTo(new TaskSnapshot("t1", Era.MODERN, TaskStatus.WORKING, "asks", created,
                created.plusSeconds(1), Duration.ofMinutes(1), Duration.ofMillis(500), Map.of(), null, null));
        assertThat(s.toBuilder().build()).isEqualTo(s);
        assertThatThrownBy(() -> s.toBuilder().status(null)).isInstanceOf(NullPointerException.class);
    }
}
