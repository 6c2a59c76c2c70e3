package dev.loommcp.internal.session.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.internal.json.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * x-mcp-header validation and extraction (MCP 2026-07-28 "Streamable HTTP: custom headers from tool parameters";
 * conformance scenarios http-custom-headers and http-invalid-tool-headers; MODERN-ERA.md C.1 item 15).
 */
class ParameterHeadersTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schema(String json) {
        return (Map<String, Object>) Json.read(json);
    }

    private static ParameterHeaders of(String json) {
        return ParameterHeaders.of(schema(json));
    }

    /** The conformance suite's http-custom-headers tool, as served. */
    private static final String CUSTOM_HEADERS_TOOL = """
            {"type":"object","properties":{
              "region":{"type":"string","x-mcp-header":"Region"},
              "priority":{"type":"integer","x-mcp-header":"Priority"},
              "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
              "debug":{"type":"boolean","x-mcp-header":"Debug"},
              "empty_val":{"type":"string","x-mcp-header":"EmptyVal"},
              "method_val":{"type":"string","x-mcp-header":"Method"},
              "float_val":{"type":"number"},
              "non_ascii_val":{"type":"string","x-mcp-header":"NonAscii"},
              "query":{"type":"string"}},
             "required":["region","priority","query"]}""";

    @Test
    void theConformanceToolIsValidAndMirrorsOnlyAnnotatedParameters() {
        ParameterHeaders h = of(CUSTOM_HEADERS_TOOL);
        assertThat(h.isValid()).isTrue();
        assertThat(h.names()).containsExactly("Region", "Priority", "Verbose", "Debug", "EmptyVal", "Method",
                "NonAscii");
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("region", "us-west1");
        args.put("priority", 42);
        args.put("verbose", false);
        args.put("debug", true);
        args.put("empty_val", "");
        args.put("method_val", "test-method");
        args.put("float_val", 3.14159);
        args.put("non_ascii_val", "Hello, 世界");
        args.put("query", "SELECT 1");
        assertThat(h.extract(args)).containsExactly(
                Map.entry("Region", "us-west1"), Map.entry("Priority", "42"), Map.entry("Verbose", "false"),
                Map.entry("Debug", "true"), Map.entry("EmptyVal", ""), Map.entry("Method", "test-method"),
                Map.entry("NonAscii", "Hello, 世界")); // raw: the transport encodes
    }

    @Test
    void nullAndAbsentArgumentsAreOmitted() {
        ParameterHeaders h = of(CUSTOM_HEADERS_TOOL);
        Map<String, Object> args = new HashMap<>();
        args.put("region", "eu");
        args.put("verbose", null);
        assertThat(h.extract(args)).containsExactly(Map.entry("Region", "eu"));
        assertThat(h.extract(null)).isEmpty();
        assertThat(h.extract(Map.of())).isEmpty();
    }

    @Test
    void integersInEveryJavaShapeAreDecimalWithinTheSafeRange() {
        ParameterHeaders h = of("""
                {"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}""");
        long max = (1L << 53) - 1;
        assertThat(h.extract(Map.of("n", -7))).containsEntry("N", "-7");
        assertThat(h.extract(Map.of("n", max))).containsEntry("N", "9007199254740991");
        assertThat(h.extract(Map.of("n", -max))).containsEntry("N", "-9007199254740991");
        assertThat(h.extract(Map.of("n", 42.0))).containsEntry("N", "42");
        assertThat(h.extract(Map.of("n", new BigDecimal("1E+3")))).containsEntry("N", "1000");
        assertThat(h.extract(Map.of("n", BigInteger.TEN))).containsEntry("N", "10");
        assertThatThrownBy(() -> h.extract(Map.of("n", max + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'n'")
                .hasMessageContaining("Mcp-Param-N").hasMessageNotContaining("9007199254740992");
        assertThatThrownBy(() -> h.extract(Map.of("n", -(max + 1)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.extract(Map.of("n", 2.5))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an integer");
        assertThatThrownBy(() -> h.extract(Map.of("n", Double.NaN))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void objectOrArrayValuesForAnAnnotatedParameterAreRefusedWithoutTheValue() {
        ParameterHeaders h = of("""
                {"type":"object","properties":{"s":{"type":"string","x-mcp-header":"S"}}}""");
        assertThatThrownBy(() -> h.extract(Map.of("s", Map.of("secret", "v"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an object")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> h.extract(Map.of("s", List.of("x")))).hasMessageContaining("an array");
    }

    @Test
    void nestedPropertiesReachableThroughPropertiesOnlyAreValidAndExtractedByPath() {
        ParameterHeaders h = of("""
                {"type":"object","properties":{"target":{"type":"object","properties":{
                   "region":{"type":"string","x-mcp-header":"Region"},
                   "zone":{"type":["integer","null"],"x-mcp-header":"Zone"}}}}}""");
        assertThat(h.isValid()).isTrue();
        assertThat(h.extract(Map.of("target", Map.of("region", "us", "zone", 3))))
                .containsExactly(Map.entry("Region", "us"), Map.entry("Zone", "3"));
        assertThat(h.extract(Map.of("target", "not an object"))).isEmpty();
        assertThat(h.extract(Map.of("region", "top-level is another path"))).isEmpty();
    }

    @Test
    void aPropertyNamedLikeTheAnnotationOrDataThatMentionsItIsNoAnnotation() {
        ParameterHeaders h = of("""
                {"type":"object","properties":{"x-mcp-header":{"type":"object"},
                   "d":{"type":"object","default":{"x-mcp-header":"X"},"examples":[{"x-mcp-header":"Y"}]}}}""");
        assertThat(h.isValid()).isTrue();
        assertThat(h.names()).isEmpty();
        assertThat(ParameterHeaders.of(null).isValid()).isTrue();
        assertThat(ParameterHeaders.of("not a schema").names()).isEmpty();
    }

    /** Every invalid kind of the conformance scenario http-invalid-tool-headers, plus C.1 item 15's others. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            empty name            | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":""}}}                          | is empty
            space in name         | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}                 | not an HTTP token
            colon in name         | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"Region:Primary"}}}            | not an HTTP token
            non-ASCII name        | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"Région"}}}                    | not an HTTP token
            tab in name           | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"Region\\t1"}}}                | control character
            CR LF in name         | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"A\\r\\nB"}}}                  | control character
            DEL in name           | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":"A\\u007fB"}}}                 | control character
            not a string          | {"type":"object","properties":{"v":{"type":"string","x-mcp-header":7}}}                           | not a string
            object type           | {"type":"object","properties":{"d":{"type":"object","x-mcp-header":"Data"}}}                      | type is object
            array type            | {"type":"object","properties":{"i":{"type":"array","items":{"type":"string"},"x-mcp-header":"Items"}}} | type is array
            null type             | {"type":"object","properties":{"n":{"type":"null","x-mcp-header":"Nil"}}}                         | type is null
            number type           | {"type":"object","properties":{"s":{"type":"number","x-mcp-header":"Score"}}}                     | type is number
            no type               | {"type":"object","properties":{"s":{"x-mcp-header":"S"}}}                                         | not declared
            two-type union        | {"type":"object","properties":{"s":{"type":["string","integer"],"x-mcp-header":"S"}}}             | union
            duplicate same case   | {"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}} | case-insensitively
            duplicate other case  | {"type":"object","properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}} | case-insensitively
            on the root           | {"type":"object","x-mcp-header":"Root","properties":{}}                                          | schema root
            under items           | {"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}} | other than properties
            under anyOf           | {"type":"object","properties":{"u":{"anyOf":[{"type":"string","x-mcp-header":"U"}]}}}            | other than properties
            under oneOf           | {"type":"object","oneOf":[{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}]}             | other than properties
            under allOf           | {"type":"object","allOf":[{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}]}             | other than properties
            under not             | {"type":"object","properties":{"u":{"not":{"type":"string","x-mcp-header":"U"}}}}                 | other than properties
            under if/then/else    | {"type":"object","if":{"properties":{"a":{"type":"string"}}},"then":{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}} | other than properties
            under $defs           | {"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"r":{"$ref":"#/$defs/r"}}} | other than properties
            under items.properties| {"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"u":{"type":"string","x-mcp-header":"U"}}}}}} | other than properties
            """)
    void invalidAnnotationsMakeTheToolInvalidAndSayWhy(String kind, String json, String reason) {
        ParameterHeaders h = ParameterHeaders.of(schema(json));
        assertThat(h.isValid()).as(kind).isFalse();
        assertThat(h.problem()).as(kind).contains(reason);
        assertThat(h.names()).isEmpty();
        assertThatThrownBy(() -> h.extract(Map.of())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void problemsNeverCarryRawControlCharacters() {
        ParameterHeaders h = of("""
                {"type":"object","properties":{"a\\nb":{"type":"number","x-mcp-header":"A"}}}""");
        assertThat(h.problem()).contains("a\\u000ab").doesNotContain("\n");
    }

    @Test
    void tokenCharactersFollowRfc9110() {
        assertThat(ParameterHeaders.isToken("!#$%&'*+-.^_`|~Az09")).isTrue();
        for (char c : "\"(),/:;<=>?@[\\]{} ".toCharArray()) {
            assertThat(ParameterHeaders.isToken("a" + c)).as("%s", c).isFalse();
        }
    }
}
