package dev.loommcp.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import java.util.Comparator;
import tools.jackson.databind.JsonNode;

/** Test helper: JSON trees compared structurally, numbers by value (so {@code 5}, {@code 5L} and {@code 5.0} match). */
final class JsonTrees {

    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private JsonTrees() {
    }

    static JsonNode tree(String json) {
        return Json.mapper().readTree(json);
    }

    static JsonNode tree(Object value) {
        return Json.mapper().valueToTree(value);
    }

    static void assertSameJson(JsonNode actual, JsonNode expected) {
        assertThat(actual.equals(NUMBERS_BY_VALUE, expected))
                .as("JSON trees differ%n actual:   %s%n expected: %s", actual, expected)
                .isTrue();
    }

    /** Reads {@code json} as {@code type}, writes it back and checks the result equals the input. */
    static <T> T roundTrip(String json, Class<T> type) {
        T value = Json.mapper().readValue(json, type);
        assertThat(value).isInstanceOf(type);
        assertSameJson(tree(Json.write(value)), tree(json));
        // and again from the written form: the record is stable
        T again = Json.mapper().readValue(Json.write(value), type);
        assertThat(again).isEqualTo(value);
        return value;
    }
}
