package dev.loommcp.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The entry rules of SEP-2640 (and the conformance suite's), and the URI comparison they rest on. */
class SkillEntryTest {

    private static final String D = "sha256:" + "a".repeat(64);

    private static Map<String, Object> file(String uri) {
        return new LinkedHashMap<>(Map.of("uri", uri, "digest", D, "size", 3L));
    }

    private static Map<String, Object> entry(String name, String uri, Object resources) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uri", uri);
        m.put("frontmatter", new HashMap<>(Map.of("name", name, "description", "d")));
        m.put("resources", resources);
        return m;
    }

    private static Map<String, Object> good() {
        return entry("pdf", "skill://pdf/SKILL.md", new ArrayList<>(List.of(file("skill://pdf/SKILL.md"),
                file("skill://pdf/references/Q%26A.md"))));
    }

    @Test
    void aValidEntryIsReadAndItsFilesAreFoundByPathOrUriWithPercentEncodingNormalized() {
        SkillEntry e = SkillEntry.fromJson(good());
        assertThat(e.name()).isEqualTo("pdf");
        assertThat(e.root()).isEqualTo("skill://pdf");
        assertThat(e.totalSize()).isEqualTo(6);
        assertThat(e.file("references/Q&A.md")).get().extracting(SkillFileEntry::uri)
                .isEqualTo("skill://pdf/references/Q%26A.md");
        assertThat(e.file("references/Q%26A.md#part")).isPresent();
        assertThat(e.file("SKILL://pdf/references/Q&A.md")).isPresent();
        assertThat(e.file("references%2FQ&A.md")).isEmpty();
        assertThat(e.file("references/%2E%2E/SKILL.md")).isEmpty();
        assertThat(e.file("../pdf/SKILL.md")).isEmpty();
        assertThat(e.file("/SKILL.md")).isEmpty();
        assertThat(e.file("references/Q&A.md?x=1")).isEmpty();
        assertThat(e.pathOf("skill://pdf/references/Q%26A.md")).isEqualTo("references/Q&A.md");
        assertThat(SkillEntry.fromJson(entry("pdf", "skill://pdf/SKILL.md", "dynamic")).isDynamic()).isTrue();
    }

    @Test
    void nonAsciiNamesMatchEncodedOrNot() {
        Map<String, Object> m = good();
        ((List<Object>) m.get("resources")).add(file("skill://pdf/r%C3%A9sum%C3%A9.md"));
        assertThat(SkillEntry.fromJson(m).file("résumé.md")).isPresent();
    }

    @Test
    void everyBrokenRuleIsRefusedNamingIt() {
        record Case(String why, java.util.function.Consumer<Map<String, Object>> change, String message) {
        }
        @SuppressWarnings("unchecked")
        List<Case> cases = List.of(
                new Case("no SKILL.md suffix", m -> m.put("uri", "skill://pdf/README.md"), "/SKILL.md"),
                new Case("no directory", m -> m.put("uri", "skill:SKILL.md"), "/SKILL.md"),
                new Case("fragment", m -> m.put("uri", "skill://pdf/SKILL.md#x"), "fragment"),
                new Case("bad name", m -> fm(m).put("name", "Pdf"), "frontmatter.name"),
                new Case("double hyphen", m -> fm(m).put("name", "p--df"), "frontmatter.name"),
                new Case("name differs", m -> fm(m).put("name", "doc"), "differs from the skill's directory"),
                new Case("long name", m -> fm(m).put("name", "a".repeat(65)), "1 to 64"),
                new Case("no description", m -> fm(m).remove("description"), "description"),
                new Case("long description", m -> fm(m).put("description", "d".repeat(1025)), "1 to 1024"),
                new Case("empty compatibility", m -> fm(m).put("compatibility", ""), "compatibility"),
                new Case("metadata not strings", m -> fm(m).put("metadata", Map.of("a", 1)), "metadata"),
                new Case("no resources", m -> m.remove("resources"), "resources is missing"),
                new Case("resources other", m -> m.put("resources", "static"), "array or \"dynamic\""),
                new Case("no SKILL.md file", m -> files(m).remove(0), "does not list the SKILL.md"),
                new Case("twice", m -> files(m).add(file("skill://pdf/references/Q&A.md")), "listed twice"),
                new Case("outside", m -> files(m).add(file("skill://other/x.md")), "strictly inside"),
                new Case("dot dot", m -> files(m).add(file("skill://pdf/a/../x.md")), "strictly inside"),
                new Case("query", m -> files(m).add(file("skill://pdf/x.md?v=1")), "query"),
                new Case("encoded slash", m -> files(m).add(file("skill://pdf/a%2Fb.md")), "'/' or NUL"),
                new Case("upper hex", m -> files(m).get(1).put("digest", "sha256:" + "A".repeat(64)),
                        "64 lower-case hex"),
                new Case("md5", m -> files(m).get(1).put("digest", "md5:" + "a".repeat(32)), "sha256:"),
                new Case("negative size", m -> files(m).get(1).put("size", -1L), "non-negative integer"),
                new Case("fraction size", m -> files(m).get(1).put("size", 1.5), "non-negative integer"),
                new Case("string size", m -> files(m).get(1).put("size", "3"), "non-negative integer"));
        for (Case c : cases) {
            Map<String, Object> m = good();
            c.change().accept(m);
            assertThatThrownBy(() -> SkillEntry.fromJson(m)).as(c.why()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(c.message());
        }
        assertThatThrownBy(() -> SkillEntry.fromJson("x")).hasMessageContaining("not an object");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> fm(Map<String, Object> m) {
        return (Map<String, Object>) m.get("frontmatter");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> files(Map<String, Object> m) {
        return (List<Map<String, Object>>) m.get("resources");
    }

    @Test
    void aFileThatIsAlsoADirectoryAndAFrontmatterNestedTooDeepAreRefused() {
        Map<String, Object> clash = good();
        files(clash).add(file("skill://pdf/references/Q%26A.md/x"));
        assertThatThrownBy(() -> SkillEntry.fromJson(clash)).hasMessageContaining("also the directory");
        Map<String, Object> skillMdDir = good();
        files(skillMdDir).add(file("skill://pdf/SKILL.md/x"));
        assertThatThrownBy(() -> SkillEntry.fromJson(skillMdDir)).hasMessageContaining("also the directory");

        Object deep = "leaf";
        for (int i = 0; i < 70; i++) {
            deep = Map.of("a", deep);
        }
        Map<String, Object> fm = new HashMap<>(Map.of("name", "pdf", "description", "d", "x", deep));
        assertThatThrownBy(() -> SkillEntry.dynamic("skill://pdf/SKILL.md", fm, null))
                .hasMessageContaining("nested deeper than 64");
    }

    @Test
    void aDynamicEntryIsMadeOnPurposeAndNullResourcesAreRefused() {
        Map<String, Object> fm = Map.of("name", "pdf", "description", "d");
        SkillEntry dynamic = SkillEntry.dynamic("skill://pdf/SKILL.md", fm, null);
        assertThat(dynamic.isDynamic()).isTrue();
        assertThat(dynamic.resources()).isSameAs(SkillEntry.DYNAMIC).isEmpty();
        assertThat(new SkillEntry("skill://pdf/SKILL.md", fm, SkillEntry.DYNAMIC, null)).isEqualTo(dynamic);
        assertThat(SkillEntry.fromJson(entry("pdf", "skill://pdf/SKILL.md", "dynamic"))).isEqualTo(dynamic);
        assertThatThrownBy(() -> new SkillEntry("skill://pdf/SKILL.md", fm, null, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("SkillEntry.DYNAMIC");
        // an empty list that is not the marker is a listed skill without its SKILL.md
        assertThatThrownBy(() -> new SkillEntry("skill://pdf/SKILL.md", fm, List.of(), null))
                .hasMessageContaining("does not list the SKILL.md");
    }
}
