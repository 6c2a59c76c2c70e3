package dev.loommcp.internal.session.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Tool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The tool catalog's compiled schemas never outlive their definitions (issue 8, item 12). */
class ToolCatalogTest {

    private static Map<String, Object> schemaRequiring(int version) {
        return Map.of("type", "object", "required", List.of("v"), "properties", Map.of("v", Map.of("const", version)));
    }

    private static CallToolResult result(int version) {
        return new CallToolResult(List.of(), Map.of("v", version), null, null);
    }

    private static void publish(ToolCatalog catalog, int version) {
        Map<String, Object> raw = Map.of("name", "t", "inputSchema", Map.of("type", "object"),
                "outputSchema", schemaRequiring(version));
        catalog.merge(List.of(raw), List.of(Tool.of("t", null, Map.of("type", "object"))), catalog.generation(),
                true);
    }

    @Test
    void aValidationRacingANewListingNeverBringsBackTheOldSchema() throws Exception {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.FAIL);
        publish(catalog, 0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong validations = new AtomicLong();
        Thread racer = Thread.ofPlatform().name("catalog-racer").start(() -> {
            while (!stop.get()) {
                try {
                    catalog.validate("t", result(-1)); // never valid: only compiles and checks
                } catch (McpProtocolException expected) {
                    // the point is the compiling, not the outcome
                }
                validations.incrementAndGet();
            }
        });
        try {
            for (int version = 1; version <= 1_000; version++) {
                publish(catalog, version);
                long seen = validations.get();
                while (validations.get() < seen + 2 && racer.isAlive()) {
                    Thread.onSpinWait(); // the racer has read the new definition at least once since
                }
                int v = version;
                assertThatCode(() -> catalog.validate("t", result(v))).as("round %d", v).doesNotThrowAnyException();
            }
        } finally {
            stop.set(true);
            racer.join(10_000);
        }
    }

    /**
     * An outputSchema the validator cannot use (a reference it cannot resolve, a reference cycle that recursed until
     * the stack overflowed, a pattern that does not compile) leaves results unchecked, even in FAIL mode: the call
     * succeeds, every time, and the client goes on checking other tools.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
        "{\"$ref\":\"#\"}",
        "{\"$ref\":\"#/definitions/nope\"}",
        "{\"$ref\":\"file:///etc/passwd\"}",
        "{\"$id\":\"urn:x\",\"$ref\":\"urn:y\"}",
        "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\",\"pattern\":\"(\"}}}"
    })
    @SuppressWarnings("unchecked")
    void anUnusableOutputSchemaLeavesResultsUncheckedAndTheClientWorking(String schema) {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.FAIL);
        Map<String, Object> bad = Map.of("name", "bad", "inputSchema", Map.of("type", "object"),
                "outputSchema", (Map<String, Object>) dev.loommcp.internal.json.Json.read(schema));
        Map<String, Object> good = Map.of("name", "t", "inputSchema", Map.of("type", "object"),
                "outputSchema", schemaRequiring(1));
        catalog.merge(List.of(bad, good), List.of(Tool.of("bad", null, Map.of()), Tool.of("t", null, Map.of())),
                catalog.generation(), true);
        for (int i = 0; i < 3; i++) {
            assertThatCode(() -> catalog.validate("bad", result(1))).doesNotThrowAnyException();
        }
        assertThatCode(() -> catalog.validate("t", result(1))).doesNotThrowAnyException();
        assertThatThrownBy(() -> catalog.validate("t", result(2))).isInstanceOf(McpProtocolException.class);
    }

    @Test
    void aPageOfAnOlderGenerationNeverReplacesNewerDefinitions() {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.FAIL);
        long old = catalog.generation();
        catalog.markStale();
        publish(catalog, 2);
        Map<String, Object> raw = Map.of("name", "t", "inputSchema", Map.of("type", "object"),
                "outputSchema", schemaRequiring(1));
        catalog.merge(List.of(raw), List.of(Tool.of("t", null, Map.of("type", "object"))), old, false);
        catalog.merge(List.of(raw), List.of(Tool.of("t", null, Map.of("type", "object"))), old, true);
        assertThatCode(() -> catalog.validate("t", result(2))).doesNotThrowAnyException();
        assertThatThrownBy(() -> catalog.validate("t", result(1))).isInstanceOf(McpProtocolException.class);
    }

    @org.junit.jupiter.api.Test
    void aListingRecordsEachToolsLegacyTaskSupport() {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.OFF);
        assertThat(catalog.taskSupport("research")).isNull();
        catalog.screen(Map.of("tools", List.of(
                Map.of("name", "research", "execution", Map.of("taskSupport", "required")),
                Map.of("name", "maybe", "execution", Map.of("taskSupport", "optional")),
                Map.of("name", "plain"),
                Map.of("name", "odd", "execution", "not an object"))));
        assertThat(catalog.taskSupport("research")).isEqualTo("required");
        assertThat(catalog.taskSupport("maybe")).isEqualTo("optional");
        assertThat(catalog.taskSupport("plain")).isEqualTo("forbidden");
        assertThat(catalog.taskSupport("odd")).isEqualTo("forbidden");
        assertThat(catalog.taskSupport("unknown")).isNull();
        // the latest listing that describes a tool wins
        catalog.screen(Map.of("tools", List.of(Map.of("name", "research"))));
        assertThat(catalog.taskSupport("research")).isEqualTo("forbidden");
    }
}
