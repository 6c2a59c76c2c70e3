package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.schema.PromptArgument;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typing rules of {@code KEY=VALUE} words ({@link KeyValues}), the parts the end-to-end tests do not reach. */
class KeyValuesTest {

    private static Map<String, Object> typed(Map<String, Object> property, String value) {
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("k", property));
        return KeyValues.typed(KeyValues.parse(List.of("k=" + value), "args").pairs(), schema, "tool 't'");
    }

    @Test
    void integersMayBeWrittenAsWholeDecimalsAndAreSentWhole() {
        assertThat(typed(Map.of("type", "integer"), "1e3")).containsEntry("k", 1000L);
        assertThat(typed(Map.of("type", "integer"), "-0")).containsEntry("k", 0);
        assertThat(typed(Map.of("type", "integer"), "123456789012345678901234567890"))
                .containsEntry("k", new BigInteger("123456789012345678901234567890"));
        assertThatThrownBy(() -> typed(Map.of("type", "integer"), "0x10"))
                .hasMessage("argument 'k': expected an integer, got '0x10'");
    }

    @Test
    void constAndEnumAndCombinatorsNameTheType() {
        assertThat(typed(Map.of("const", 3), "3")).containsEntry("k", 3);
        assertThat(typed(Map.of("enum", List.of("a", 2)), "2")).containsEntry("k", 2);
        assertThat(typed(Map.of("enum", List.of("a", 2)), "a")).containsEntry("k", "a");
        assertThat(typed(Map.of("oneOf", List.of(Map.of("type", "boolean"), Map.of("type", "null"))), "null"))
                .containsEntry("k", null);
        assertThatThrownBy(() -> typed(Map.of("oneOf", List.of(Map.of("type", "boolean"), Map.of("type", "null"))),
                "maybe")).hasMessage("argument 'k': expected a boolean or null, got 'maybe'");
        // a branch without a type: nothing usable, so the value is inferred
        assertThat(typed(Map.of("anyOf", List.of(Map.of("type", "boolean"), Map.of("$ref", "#/x"))), "x"))
                .containsEntry("k", "x");
    }

    @Test
    void aSchemaWithoutPropertiesTakesAnyKeyAndFalseAdditionalPropertiesNone() {
        assertThat(KeyValues.typed(List.of(new KeyValues.Pair("a", "1")), Map.of("type", "object"), "tool 't'"))
                .containsEntry("a", 1);
        assertThatThrownBy(() -> KeyValues.typed(List.of(new KeyValues.Pair("a", "1")),
                Map.of("type", "object", "additionalProperties", false), "tool 't'"))
                .hasMessageStartingWith("tool 't' has no argument 'a' (it takes none");
    }

    @Test
    void messagesEscapeControlCharactersAndCutLongValues() {
        assertThatThrownBy(() -> typed(Map.of("type", "number"), "\u001b[31m" + "x".repeat(100)))
                .hasMessageContaining("got '\\x1b[31mxxx").hasMessageContaining("...'");
        assertThatThrownBy(() -> KeyValues.strings(List.of(new KeyValues.Pair("b\u202e", "v")),
                List.of(new PromptArgument("a", null, null, true)), "prompt 'p'"))
                .hasMessageStartingWith("prompt 'p' has no argument 'b\\u202e' (its arguments are: a;");
    }
}
