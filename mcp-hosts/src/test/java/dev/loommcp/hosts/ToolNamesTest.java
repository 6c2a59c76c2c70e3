package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27 item 8: namespaced tool names a model accepts ({@code ^[a-zA-Z0-9_-]{1,64}$}). Long names (85 and 101
 * characters, as real servers make them), names with dots, spaces and other scripts, names that sanitise to the same
 * string, stability across runs and orders, and routing by either form through the registry (scripted servers).
 */
@ExtendWith(LeakCheck.class)
class ToolNamesTest {

    private static final Pattern ACCEPTED = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    @Test
    void fittingNamesAreKeptAndOthersAreMadeToFitWithAHashWhenTooLong() {
        String long85 = "github-enterprise-production__" + "list_pull_request_review_comments_for_repository_x".repeat(1)
                + "_and_more";
        String long101 = "atlassian-confluence-cloud__" + "x".repeat(101 - "atlassian-confluence-cloud__".length());
        assertThat(long101).hasSize(101);
        List<String> fulls = List.of("files__read_file", "files__read.file v2", "Café Server__lire", long85,
                long101);
        Map<String, String> names = ToolNames.assign(fulls);
        assertThat(names.values()).allMatch(n -> ACCEPTED.matcher(n).matches(), "matches " + ACCEPTED);
        assertThat(new HashSet<>(names.values())).hasSize(fulls.size());
        assertThat(names.get("files__read_file")).isEqualTo("files__read_file");
        assertThat(names.get("files__read.file v2")).isEqualTo("files__read_file_v2");
        assertThat(names.get("Café Server__lire")).isEqualTo("Caf__Server__lire");
        // too long: a readable prefix of 55, '_', 8 hex digits of SHA-256 of the full name
        assertThat(names.get(long85)).hasSize(64).startsWith(long85.substring(0, 55) + "_")
                .isEqualTo(long85.substring(0, 55) + "_" + sha256Hex(long85).substring(0, 8));
        assertThat(names.get(long101)).hasSize(64).startsWith("atlassian-confluence-cloud__xxx");
    }

    @Test
    void namesThatSanitiseToTheSameStringAreKeptApartAndAValidNameKeepsItsOwn() {
        // "a.b" and "a b" both sanitise to "a_b", which is also a real tool's name
        List<String> fulls = List.of("s__a.b", "s__a b", "s__a_b", "t__x_y", "t__x.y");
        Map<String, String> names = ToolNames.assign(fulls);
        assertThat(new HashSet<>(names.values())).hasSize(fulls.size());
        assertThat(names.get("s__a_b")).isEqualTo("s__a_b"); // needed no change: keeps it
        assertThat(names.get("t__x_y")).isEqualTo("t__x_y");
        assertThat(names.get("s__a.b")).matches("s__a_b_[0-9a-f]{8}");
        assertThat(names.get("s__a b")).matches("s__a_b_[0-9a-f]{8}");
        assertThat(names.get("t__x.y")).matches("t__x_y_[0-9a-f]{8}");
        // two long names with the same first 55 characters differ in their hash
        String prefix = "p".repeat(70);
        Map<String, String> longOnes = ToolNames.assign(List.of(prefix + "__one", prefix + "__two"));
        assertThat(new HashSet<>(longOnes.values())).hasSize(2).allMatch(n -> n.length() == 64);
    }

    @Test
    void namesAreStableAcrossRunsAndOrders() {
        List<String> fulls = new ArrayList<>(List.of("s__a.b", "s__a b", "s__a_b", "Ünïcode srv__tööl",
                "x".repeat(80) + "__y", "x".repeat(80) + "__z", "ok__fine"));
        Map<String, String> first = ToolNames.assign(fulls);
        for (int run = 0; run < 20; run++) {
            Collections.shuffle(fulls, new java.util.Random(run));
            assertThat(ToolNames.assign(fulls)).containsExactlyInAnyOrderEntriesOf(first);
        }
        // fixed values: the same in every run of every JVM (SHA-256, no randomness)
        assertThat(first.get("s__a.b")).isEqualTo("s__a_b_" + sha256Hex("s__a.b").substring(0, 8));
    }

    @Test
    void hashedNamesThatStillCollideTakeASaltInFullNameOrder() {
        // force a collision between a hashed name and a tool literally named like it
        String full = "s__a.b";
        String hashed = ToolNames.hashed(full, 0);
        Map<String, String> names = ToolNames.assign(List.of(full, "s__a_b", hashed));
        assertThat(new HashSet<>(names.values())).hasSize(3);
        assertThat(names.get(hashed)).isEqualTo(hashed); // valid as it is: keeps it
        assertThat(names.get(full)).isEqualTo(ToolNames.hashed(full, 1));
    }

    private static Map<String, Object> toolList(String... names) {
        return Map.of("tools", java.util.Arrays.stream(names)
                .map(n -> Map.<String, Object>of("name", n, "inputSchema", Map.of("type", "object"))).toList());
    }

    @Test
    void theRegistryNamesToolsForAModelAndRoutesByEitherName() throws Exception {
        String longTool = "list_pull_request_review_comments_for_a_repository_in_an_organisation";
        Map<String, ScriptedTransport> transports = new ConcurrentHashMap<>();
        Map<String, String[]> lists = Map.of("git hub", new String[] {"search.issues", longTool, "get me"},
                "git_hub", new String[] {"search_issues"}, "données", new String[] {"lire"});
        try (McpServers servers = McpServers.newBuilder().closeTimeout(Duration.ofSeconds(5))
                .transports(config -> transports.computeIfAbsent(config.name(), n -> ScriptedTransport.create()
                        .on("tools/list", r -> toolList(lists.get(n)))
                        .on("tools/call", r -> Map.of("content", List.of(Map.of("type", "text", "text",
                                n + ":" + r.params().get("name")))))))
                .add(StdioServerConfig.of("git hub", "never-run"))
                .add(StdioServerConfig.of("git_hub", "never-run"))
                .add(StdioServerConfig.of("données", "never-run"))
                .build()) {
            List<HostedTool> tools = servers.tools();
            assertThat(tools).extracting(HostedTool::name).allMatch(n -> ACCEPTED.matcher(n).matches());
            assertThat(tools).extracting(HostedTool::name).doesNotHaveDuplicates();
            assertThat(tools).extracting(HostedTool::fullName).containsExactly("git hub__search.issues",
                    "git hub__" + longTool, "git hub__get me", "git_hub__search_issues", "données__lire");
            // "git hub__search.issues" sanitises to git_hub's own valid name: that one keeps it
            assertThat(tools.get(3).name()).isEqualTo("git_hub__search_issues");
            assertThat(tools.get(0).name()).matches("git_hub__search_issues_[0-9a-f]{8}");
            assertThat(tools.get(1).name()).hasSize(64);
            assertThat(tools.get(2).name()).isEqualTo("git_hub__get_me");
            assertThat(tools.get(4).name()).isEqualTo("donn_es__lire");
            for (HostedTool t : tools) {
                // reversible: either name leads back to the server and its own tool name
                assertThat(servers.tool(t.name())).contains(t);
                assertThat(servers.tool(t.fullName())).contains(t);
                String expected = t.server() + ":" + t.tool().name();
                assertThat(text(servers.callTool(t.name(), Map.of()))).isEqualTo(expected);
                assertThat(text(servers.callTool(t.fullName(), Map.of()))).isEqualTo(expected);
            }
            assertThat(servers.tool("Git_Hub__nope")).isEmpty();
            assertThatThrownBy(() -> servers.callTool("Git_Hub__nope", Map.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Git_Hub__nope");
        }
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }

    private static String sha256Hex(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
