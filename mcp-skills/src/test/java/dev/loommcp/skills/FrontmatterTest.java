package dev.loommcp.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SKILL.md frontmatter: split, YAML 1.2 core-schema typing, and the field-by-field comparison. */
class FrontmatterTest {

    @Test
    void splitDropsOneBomNormalizesCrlfAndEndsAtTheFirstClosingLine() {
        Frontmatter.Split s = Frontmatter.split("\uFEFF---\r\nname: a\r\n---  \t\r\nBody\r\n---\r\n");
        assertThat(s.yaml()).isEqualTo("name: a");
        assertThat(s.body()).isEqualTo("Body\n---\n");
        assertThat(Frontmatter.split("---\n---\n").yaml()).isEmpty();
        assertThatThrownBy(() -> Frontmatter.split("name: a\n")).hasMessageContaining("'---' line");
        assertThatThrownBy(() -> Frontmatter.split("---\nname: a\n")).hasMessageContaining("closing");
        assertThatThrownBy(() -> Frontmatter.split("---\nname: a\n----\n")).hasMessageContaining("closing");
    }

    @Test
    void yamlIsTypedWithTheCoreSchemaLikeTheConformanceSuite() {
        Map<String, Object> m = Frontmatter.parse("a: ~\nb: 010\nc: 0o10\nd: yes\ne: 2024-01-01\nf: 1e3\n"
                + "g: 2.10\nh: true\ni: null\nj: on\n");
        assertThat(m.get("a")).isNull();
        assertThat(m).containsKey("a");
        assertThat(((Number) m.get("b")).intValue()).isEqualTo(10);
        assertThat(((Number) m.get("c")).intValue()).isEqualTo(8);
        assertThat(m.get("d")).isEqualTo("yes");
        assertThat(m.get("e")).isEqualTo("2024-01-01");
        assertThat(((Number) m.get("f")).doubleValue()).isEqualTo(1000.0);
        assertThat(((Number) m.get("g")).doubleValue()).isEqualTo(2.1);
        assertThat(m.get("h")).isEqualTo(true);
        assertThat(m.get("j")).isEqualTo("on");
    }

    @Test
    void duplicateKeysAliasesOfCollectionsNonStringKeysAndNonMappingsAreRefused() {
        assertThatThrownBy(() -> Frontmatter.parse("a: 1\na: 2\n")).hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> Frontmatter.parse("a: &x [1]\nb: *x\n")).hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> Frontmatter.parse("? [1]\n: a\n")).hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> Frontmatter.parse("- a\n")).hasMessageContaining("not a YAML mapping");
        assertThatThrownBy(() -> Frontmatter.parse("a: .nan\n")).hasMessageContaining("non-finite");
        assertThatThrownBy(() -> Frontmatter.parse("a: [\n")).hasMessageContaining("not valid YAML");
    }

    @Test
    void comparisonIsByValueWithoutCoercionAndNullIsNotAbsent() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("n", 1L);
        entry.put("big", new BigInteger("10"));
        entry.put("o", Map.of("x", List.of(1, "a"), "y", true));
        Map<String, Object> file = new HashMap<>();
        file.put("n", 1.0);
        file.put("big", 10);
        file.put("o", Map.of("y", true, "x", List.of(1.0, "a")));
        assertThat(Frontmatter.differences(entry, file)).isEmpty();

        file.put("n", "1");
        file.put("o", Map.of("y", "true", "x", List.of(1.0, "a")));
        file.put("extra", null);
        assertThat(Frontmatter.differences(entry, file)).containsExactly("n", "o", "extra");
        assertThat(Frontmatter.same(List.of(1, 2), List.of(2, 1))).isFalse();
        assertThat(Frontmatter.same(List.of(1), List.of(1, 1))).isFalse();
        assertThat(Frontmatter.same(Double.NaN, Double.NaN)).isFalse();
    }

    @Test
    void scalarKeysAreTakenAsTheirValuesText() {
        assertThat(Frontmatter.parse("1: a\n010: b\ntrue: c\n1.50: d\nnull: e\n")).containsOnlyKeys("1", "10", "true",
                "1.5", "null");
        assertThatThrownBy(() -> Frontmatter.parse("1: a\n\"1\": b\n")).hasMessageContaining("key '1' twice");
    }

    @Test
    void nestingIsBoundedBeforeTheTreeIsBuiltInEveryStyle() {
        String flow = "x: " + "[".repeat(5000) + "]".repeat(5000) + "\n";
        String mapping = "x: " + "{a: ".repeat(3000) + "1" + "}".repeat(3000) + "\n";
        StringBuilder block = new StringBuilder("x:\n");
        for (int i = 1; i <= 70; i++) {
            block.append("  ".repeat(i)).append("a:\n");
        }
        for (String yaml : List.of(flow, mapping, block.toString())) {
            assertThatThrownBy(() -> Frontmatter.parse(yaml)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nested deeper than 64 levels");
        }
        String ok = "x: " + "[".repeat(63) + "]".repeat(63) + "\n";
        assertThat(Frontmatter.parse(ok)).containsKey("x");
    }

    @Test
    void aliasesOfLongScalarsAreBoundedByTheTextsLength() {
        String scalar = "v".repeat(100_000);
        StringBuilder bomb = new StringBuilder("a: &a ").append(scalar).append("\nb: [");
        for (int i = 0; i < 400; i++) {
            bomb.append(i == 0 ? "" : ", ").append("*a");
        }
        assertThatThrownBy(() -> Frontmatter.parse(bomb + "]\n")).hasMessageContaining("aliases expand");
        assertThat(Frontmatter.parse("a: &a word\nb: [*a, *a]\n").get("b")).isEqualTo(List.of("word", "word"));
    }

    @Test
    void theComparisonAndTheEntrysFrontmatterAreBoundedToo() {
        Object deep = "leaf";
        for (int i = 0; i < 100; i++) {
            deep = List.of(deep);
        }
        Object value = deep;
        assertThatThrownBy(() -> Frontmatter.same(value, value)).hasMessageContaining("nested deeper than 64");
        assertThatThrownBy(() -> Frontmatter.checkDepth(Map.of("x", value)))
                .hasMessageContaining("nested deeper than 64");
    }
}
