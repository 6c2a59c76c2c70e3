package dev.loommcp.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.loommcp.schema.Tool;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The schema shapes that broke LangChain4j's own MCP converter (FRAMEWORKS.md section 2.2), one test each: every one
 * converts without an exception and keeps what the tree can say.
 */
class LangChain4jSchemasTest {

    /** A schema as a server sends it (JSON text, numbers exact: big integers as BigInteger). */
    private static Map<String, Object> schema(String json) {
        return Contents.arguments(json);
    }

    private static JsonSchemaElement prop(JsonObjectSchema s, String name) {
        assertThat(s.properties()).containsKey(name);
        return s.properties().get(name);
    }

    private static void acceptsAnything(JsonSchemaElement e) {
        assertThat(e).isInstanceOf(JsonAnyOfSchema.class);
        assertThat(((JsonAnyOfSchema) e).anyOf()).hasSize(7).hasAtLeastOneElementOfType(JsonNullSchema.class);
    }

    @Test
    void refToDefsBecomesAReferenceAndTheDefinitionsAreKeptUnderDefs() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],
                 "$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},
                   "children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}"""));
        assertThat(prop(s, "root")).isInstanceOf(JsonReferenceSchema.class);
        assertThat(((JsonReferenceSchema) prop(s, "root")).reference()).isEqualTo("Node");
        JsonObjectSchema node = (JsonObjectSchema) s.definitions().get("Node");
        assertThat(prop(node, "name")).isInstanceOf(JsonStringSchema.class);
        JsonArraySchema children = (JsonArraySchema) prop(node, "children");
        assertThat(((JsonReferenceSchema) children.items()).reference()).isEqualTo("Node");
        String json = ToolSpecification.builder().name("t").parameters(s).build().toJson();
        assertThat(json).contains("\"$ref\":\"#/$defs/Node\"").contains("\"$defs\"");
    }

    @Test
    void draft7DefinitionsAreReferencedTheSameWay() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},
                 "definitions":{"A":{"type":"integer"}}}"""));
        assertThat(((JsonReferenceSchema) prop(s, "a")).reference()).isEqualTo("A");
        assertThat(s.definitions().get("A")).isInstanceOf(JsonIntegerSchema.class);
    }

    @Test
    void refOutsideDefsIsInlinedNeverTurnedIntoABrokenDefsPath() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{
                   "source":{"type":"string","enum":["a","b"]},
                   "target":{"$ref":"#/properties/source","description":"where to"},
                   "nested":{"$ref":"#/properties/deep/$defs/X"},
                   "deep":{"type":"object","$defs":{"X":{"type":"integer"}}},
                   "remote":{"$ref":"https://example.com/schema.json"},
                   "self":{"$ref":"#"}}}"""));
        assertThat(prop(s, "target")).isInstanceOf(JsonEnumSchema.class);
        assertThat(((JsonEnumSchema) prop(s, "target")).enumValues()).containsExactly("a", "b");
        assertThat(prop(s, "target").description()).isEqualTo("where to");
        assertThat(prop(s, "nested")).isInstanceOf(JsonIntegerSchema.class);
        acceptsAnything(prop(s, "remote"));
        assertThat(s.definitions()).isNullOrEmpty();
        String json = ToolSpecification.builder().name("t").parameters(s).build().toJson();
        assertThat(json).doesNotContain("#/$defs/#");
    }

    @Test
    void rootAnyOfBesideTypeObjectKeepsTheObjectAndTheBranchesPropertiesAsOptional() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"id":{"type":"string"}},"required":["id"],
                 "anyOf":[{"properties":{"byName":{"type":"string"}},"required":["byName"]},
                          {"properties":{"byAge":{"type":"integer"}},"required":["byAge"]}]}"""));
        assertThat(s.properties()).containsOnlyKeys("id", "byName", "byAge");
        assertThat(s.required()).containsExactly("id");
    }

    @Test
    void integersBeyond64BitsAreKeptDigitForDigit() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{
                   "big":{"type":"integer","minimum":0,"maximum":123456789012345678901234567890},
                   "pick":{"enum":[18446744073709551616, 1, 2]}}}"""));
        assertThat(prop(s, "big")).isInstanceOf(JsonIntegerSchema.class);
        assertThat(prop(s, "big").description()).contains("maximum: 123456789012345678901234567890");
        assertThat(prop(s, "pick")).isInstanceOf(JsonIntegerSchema.class);
        assertThat(prop(s, "pick").description()).contains("18446744073709551616, 1, 2");
    }

    @Test
    void enumsOfStringsAreEnumsAndOtherEnumsKeepTheirType() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{
                   "color":{"type":"string","enum":["red","green"],"description":"a color"},
                   "maybe":{"enum":["x",null]},
                   "flag":{"enum":[true]},
                   "ratio":{"type":"number","enum":[0.5,1.5]},
                   "fixed":{"const":"only"}}}"""));
        assertThat(((JsonEnumSchema) prop(s, "color")).enumValues()).containsExactly("red", "green");
        assertThat(prop(s, "color").description()).isEqualTo("a color");
        assertThat(((JsonAnyOfSchema) prop(s, "maybe")).anyOf()).hasSize(2);
        assertThat(prop(s, "flag").description()).contains("one of: true");
        assertThat(prop(s, "ratio").description()).contains("0.5, 1.5");
        assertThat(((JsonEnumSchema) prop(s, "fixed")).enumValues()).containsExactly("only");
    }

    @Test
    void anEnumOfMixedTypesAcceptsEveryOneOfItsValuesAndListsThem() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{
                   "mixed":{"enum":[1,"a",null,true,{}]},
                   "numbers":{"enum":[1,2.5]},
                   "count":{"enum":[1,2,null]},
                   "declared":{"type":"integer","enum":[1,"a"]}}}"""));
        acceptsAnything(prop(s, "mixed"));
        assertThat(prop(s, "mixed").description()).isEqualTo("(one of: 1, \"a\", null, true, {})");
        assertThat(prop(s, "numbers")).isInstanceOf(JsonNumberSchema.class);
        assertThat(((JsonAnyOfSchema) prop(s, "count")).anyOf()).hasSize(2)
                .hasAtLeastOneElementOfType(JsonIntegerSchema.class).hasAtLeastOneElementOfType(JsonNullSchema.class);
        assertThat(prop(s, "declared")).isInstanceOf(JsonIntegerSchema.class); // the declared type is the server's word
    }

    @Test
    void aDefinitionThatOnlyRefersInALoopAcceptsAnythingInsteadOfEmptyReferences() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"x":{"$ref":"#/$defs/A","description":"an x"},
                                               "y":{"$ref":"#/definitions/B"}},
                 "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"""));
        acceptsAnything(prop(s, "x"));
        assertThat(prop(s, "x").description()).isEqualTo("an x");
        acceptsAnything(prop(s, "y"));
        assertThat(s.definitions()).isNullOrEmpty();
        // an alias to a definition with content stays a reference
        JsonObjectSchema alias = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},
                 "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"type":"string"}}}"""));
        assertThat(prop(alias, "x")).isInstanceOf(JsonReferenceSchema.class);
        assertThat(alias.definitions()).containsKeys("A", "B");
    }

    @Test
    void nestedArraysAndArraysWithoutItemsConvert() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{
                   "matrix":{"type":"array","items":{"type":"array","items":{"type":"number"}}},
                   "anything":{"type":"array"},
                   "emptyItems":{"type":"array","items":{}},
                   "tuple":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}}}"""));
        JsonArraySchema matrix = (JsonArraySchema) prop(s, "matrix");
        assertThat(((JsonArraySchema) matrix.items()).items()).isNotNull();
        acceptsAnything(((JsonArraySchema) prop(s, "anything")).items());
        acceptsAnything(((JsonArraySchema) prop(s, "emptyItems")).items());
        assertThat(((JsonAnyOfSchema) ((JsonArraySchema) prop(s, "tuple")).items()).anyOf()).hasSize(2);
    }

    @Test
    void missingOrUnknownTypesTypeListsAndNullNeverThrow() {
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema("""
                {"properties":{
                   "untyped":{"description":"no type"},
                   "weird":{"type":"decimal128"},
                   "either":{"type":["string","null"]},
                   "nothing":{"type":"null"},
                   "branches":{"anyOf":[{"description":"no type here"},{"type":"string"}]},
                   "one":{"oneOf":[{"type":"string"},{"type":"integer"}]},
                   "both":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},
                                    {"properties":{"b":{"type":"integer"}},"required":["b"]}]},
                   "free":{"type":"object","additionalProperties":{"type":"string"}},
                   "closed":{"type":"object","additionalProperties":false},
                   "junk":42, "yes":true}}"""));
        acceptsAnything(prop(s, "untyped"));
        assertThat(prop(s, "untyped").description()).isEqualTo("no type");
        acceptsAnything(prop(s, "weird"));
        assertThat(((JsonAnyOfSchema) prop(s, "either")).anyOf()).hasSize(2)
                .hasAtLeastOneElementOfType(JsonNullSchema.class);
        assertThat(prop(s, "nothing")).isInstanceOf(JsonNullSchema.class);
        assertThat(((JsonAnyOfSchema) prop(s, "branches")).anyOf()).hasSize(2);
        assertThat(((JsonAnyOfSchema) prop(s, "one")).anyOf()).hasSize(2);
        JsonObjectSchema both = (JsonObjectSchema) prop(s, "both");
        assertThat(both.properties()).containsOnlyKeys("a", "b");
        assertThat(both.required()).containsExactly("b");
        assertThat(((JsonObjectSchema) prop(s, "free")).additionalProperties()).isNull();
        assertThat(((JsonObjectSchema) prop(s, "closed")).additionalProperties()).isFalse();
        acceptsAnything(prop(s, "junk"));
        acceptsAnything(prop(s, "yes"));
    }

    @Test
    void noSchemaAnEmptyOneAndARefCycleGiveAnObject() {
        assertThat(LangChain4jSchemas.toParameters(null).properties()).isEmpty();
        assertThat(LangChain4jSchemas.toParameters(Map.of()).properties()).isEmpty();
        JsonObjectSchema cycle = LangChain4jSchemas.toParameters(schema("""
                {"type":"object","properties":{"a":{"$ref":"#/properties/b"},"b":{"$ref":"#/properties/a"}},
                 "required":["a","ghost"]}"""));
        acceptsAnything(prop(cycle, "a"));
        acceptsAnything(prop(cycle, "ghost")); // required but not described: still offered
        assertThat(cycle.required()).containsExactly("a", "ghost");
    }

    @Test
    void aDeeplyNestedSchemaIsCutNotOverflowed() {
        String deep = "{\"type\":\"object\",\"properties\":{\"x\":".repeat(200) + "{\"type\":\"string\"}"
                + "}}".repeat(200);
        JsonObjectSchema s = LangChain4jSchemas.toParameters(schema(deep));
        assertThat(s.properties()).containsKey("x");
    }

    @Test
    void theSpecificationKeepsTheOriginalSchemaAndFallsBackToTheTitle() {
        Map<String, Object> input = schema("{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"string\"}}}");
        Tool tool = new Tool("echo", "Echo it", null, input, null, null, null, null, null);
        ToolSpecification spec = LangChain4jSchemas.toToolSpecification("srv__echo", tool);
        assertThat(spec.name()).isEqualTo("srv__echo");
        assertThat(spec.description()).isEqualTo("Echo it");
        assertThat(spec.metadata()).containsEntry(LangChain4jSchemas.INPUT_SCHEMA_METADATA_KEY, input);
        assertThat(spec.parameters().properties()).containsOnlyKeys("m");
    }
}
