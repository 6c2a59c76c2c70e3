package dev.loommcp.cli.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The values the conformance client makes up for tool arguments and accepted forms. */
class SchemaValuesTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schema(String json) {
        return (Map<String, Object>) Json.read(json);
    }

    @Test
    void toolArgumentsFillOnlyTheRequiredProperties() {
        Map<String, Object> s = schema("""
                {"type":"object","properties":{
                   "region":{"type":"string","x-mcp-header":"Region"},
                   "count":{"type":"integer","minimum":3},
                   "optional":{"type":"string"}},
                 "required":["region","count"]}""");
        assertThat(SchemaValues.requiredArguments(s))
                .containsExactly(Map.entry("region", SchemaValues.TEXT), Map.entry("count", 3));
    }

    @Test
    void formContentFillsEveryPropertyPreferringDefaultsConstAndEnum() {
        Map<String, Object> s = schema("""
                {"type":"object","properties":{
                   "confirmed":{"type":"boolean","description":"Confirm?"},
                   "name":{"type":"string","default":"Ada"},
                   "kind":{"type":"string","const":"fixed"},
                   "color":{"type":"string","enum":["red","green"]},
                   "ratio":{"type":"number"},
                   "tags":{"type":"array"},
                   "nested":{"type":"object"},
                   "maybe":{"type":["null","integer"]},
                   "untyped":{}}}""");
        assertThat(SchemaValues.formContent(s)).containsExactly(Map.entry("confirmed", true),
                Map.entry("name", "Ada"), Map.entry("kind", "fixed"), Map.entry("color", "red"),
                Map.entry("ratio", 1), Map.entry("tags", List.of()), Map.entry("nested", Map.of()),
                Map.entry("maybe", 1), Map.entry("untyped", SchemaValues.TEXT));
    }

    @Test
    void aSchemaWithoutPropertiesGivesNothing() {
        assertThat(SchemaValues.requiredArguments(null)).isEmpty();
        assertThat(SchemaValues.formContent(schema("{\"type\":\"object\"}"))).isEmpty();
        assertThat(SchemaValues.requiredArguments(schema("{\"type\":\"object\",\"properties\":{\"a\":{}}}")))
                .isEmpty();
    }
}
