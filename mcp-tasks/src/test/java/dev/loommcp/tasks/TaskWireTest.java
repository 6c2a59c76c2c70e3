package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpProtocolException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Both eras' task shapes, read leniently (MODERN-ERA.md C.5.3, C.5.4, C.6.3, C.6.4). */
class TaskWireTest {

    @Test
    void modernFlatCreation() {
        Map<String, Object> raw = Map.of("resultType", "task", "taskId", "bc71", "status", "working",
                "createdAt", "2026-12-01T03:00:36.938Z", "lastUpdatedAt", "2026-12-01T03:00:36.938Z",
                "ttlMs", 600000, "pollIntervalMs", 200);
        TaskSnapshot s = TaskWire.parse(raw, Era.MODERN, null, "creation");
        assertThat(s.taskId()).isEqualTo("bc71");
        assertThat(s.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(s.ttl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.pollInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(s.createdAt()).isEqualTo(Instant.parse("2026-12-01T03:00:36.938Z"));
    }

    @Test
    void legacyNestedCreationAndFlatTask() {
        Map<String, Object> raw = Map.of("task", Map.of("taskId", "29b9", "status", "working", "ttl", 300000,
                "pollInterval", 1000, "statusMessage", "Gathering sources...", "createdAt", "2026-12-01T03:00:00Z"));
        TaskSnapshot s = TaskWire.parse(raw, Era.LEGACY, null, "creation");
        assertThat(s.taskId()).isEqualTo("29b9");
        assertThat(s.ttl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.statusMessage()).isEqualTo("Gathering sources...");
        assertThatThrownBy(() -> TaskWire.parse(Map.of("content", java.util.List.of()), Era.LEGACY, null, "creation"))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("taskId is missing");
    }

    @Test
    void theStatusDecidesAndATaskResultTypeOnGetIsTolerated() {
        Map<String, Object> raw = Map.of("resultType", "task", "taskId", "t", "status", "completed",
                "result", Map.of("content", java.util.List.of()), "inputRequests", Map.of("k", Map.of()));
        TaskSnapshot s = TaskWire.parse(raw, Era.MODERN, "t", "tasks/get result");
        assertThat(s.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(s.result()).containsKey("content");
        assertThat(s.inputRequests()).as("only input_required carries input").isEmpty();
        TaskSnapshot failed = TaskWire.parse(Map.of("taskId", "t", "status", "failed", "error",
                Map.of("code", -32603, "message", "x", "data", "d")), Era.MODERN, "t", "get");
        assertThat(failed.error().code()).isEqualTo(-32603);
        assertThat(failed.error().data()).isEqualTo("d");
        TaskSnapshot input = TaskWire.parse(Map.of("status", "input_required", "inputRequests",
                Map.of("k", Map.of("method", "elicitation/create"))), Era.MODERN, "t", "get");
        assertThat(input.taskId()).as("a missing id is the asked one").isEqualTo("t");
        assertThat(input.inputRequests()).containsOnlyKeys("k");
    }

    @Test
    void unreadableOptionalFieldsAreLeftOut() {
        Map<String, Object> raw = new HashMap<>();
        raw.put("taskId", "t");
        raw.put("status", "working");
        raw.put("createdAt", "yesterday");
        raw.put("ttlMs", null);
        raw.put("pollIntervalMs", -5);
        raw.put("statusMessage", 42);
        TaskSnapshot s = TaskWire.parse(raw, Era.MODERN, null, "get");
        assertThat(s.createdAt()).isNull();
        assertThat(s.ttl()).isNull();
        assertThat(s.pollInterval()).isNull();
        assertThat(s.statusMessage()).isNull();
    }

    @Test
    void missingOrUnknownStatusAndIdAreClearErrors() {
        assertThatThrownBy(() -> TaskWire.parse(Map.of("taskId", "t"), Era.MODERN, null, "tasks/get result"))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("status is missing")
                .hasMessageContaining("tasks/get result");
        assertThatThrownBy(() -> TaskWire.parse(Map.of("taskId", "t", "status", "paused"), Era.MODERN, null, "x"))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("unknown task status: paused");
        assertThatThrownBy(() -> TaskWire.parse(Map.of("status", "working"), Era.MODERN, null, "creation"))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("taskId is missing");
        assertThatThrownBy(() -> TaskWire.parse(Map.of("taskId", "other", "status", "working"), Era.MODERN, "t",
                "get")).isInstanceOf(McpProtocolException.class).hasMessageContaining("instead of t");
    }
}
