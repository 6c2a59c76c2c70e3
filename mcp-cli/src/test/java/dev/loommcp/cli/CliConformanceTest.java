package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.McpClient;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.it.servers.HttpOAuthFixture;
import dev.loommcp.it.servers.HttpSkillsFixture;
import dev.loommcp.transport.http.HttpTransport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code mcp conformance URL} through the real command line ({@link Main#run}): how it reads the suite's environment
 * ({@code MCP_CONFORMANCE_SCENARIO}, {@code MCP_CONFORMANCE_PROTOCOL_VERSION}, {@code MCP_CONFORMANCE_CONTEXT}), which
 * scenarios it refuses, and what two scenarios put on the wire, against a local recording server.
 */
@ExtendWith(LeakCheck.class)
class CliConformanceTest {

    record Run(int code, String out, String err) {
    }

    private static final String FOCAL_SCHEMA = """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
             "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"city":{"type":"string"}}}},
             "properties":{"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["a","b"]}},
             "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
             "if":{"properties":{"contactMethod":{"const":"a"}}},"then":{"required":["phone"]},
             "else":{"required":["email"]},"additionalProperties":false}""";

    private final Map<String, String> env = new HashMap<>();

    private Run conformance(String url) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), env::get, "conformance", url);
        return new Run(code, out.toString(), err.toString());
    }

    private static Map<String, Object> tool(String name, Object inputSchema) {
        return Map.of("name", name, "inputSchema", inputSchema);
    }

    private static Map<String, Function<Map<String, Object>, Object>> answers(List<Map<String, Object>> tools) {
        return Map.of(
                "tools/list", params -> Map.of("tools", tools),
                "tools/call", params -> Map.of("content", List.of(Map.of("type", "text", "text", "ok"))));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> calls(RecordingMcpServer server) {
        return server.messages().stream().filter(m -> "tools/call".equals(m.get("method")))
                .map(m -> (Map<String, Object>) m.get("params")).toList();
    }

    @Test
    void unknownScenariosAreRefusedSayingWhy() {
        env.put("MCP_CONFORMANCE_SCENARIO", "no-such-scenario");
        Run unknown = conformance("http://127.0.0.1:9/mcp");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown scenario no-such-scenario")
                .contains("http-custom-headers").contains("sep-2322-client-request-state")
                .contains("sep-2640-client-verify-frontmatter");
    }

    @Test
    @SuppressWarnings("unchecked")
    void skillScenariosListWithoutFetchingAndTheVerifyOnesLoadTheFirstSkillStoppingAtTheFirstRefusedFile()
            throws Exception {
        try (HttpSkillsFixture fixture = new HttpSkillsFixture();
             McpClient stats = McpClient.newBuilder(HttpTransport.newBuilder(fixture.endpoint()).build())
                     .protocolMode(ProtocolMode.LEGACY).build()) {
            stats.connect();
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            env.put("MCP_CONFORMANCE_SCENARIO", "sep-2640-client-no-prefetch");
            Run listed = conformance(fixture.endpoint().toString());
            assertThat(listed.code()).as(listed.err()).isZero();
            assertThat(listed.err()).contains("skill://release-notes/SKILL.md").contains("1 invalid entr");
            assertThat(stats.request("fixture/stats", Map.of(), RequestOptions.DEFAULT).get("reads"))
                    .isEqualTo(Map.of());

            // the first skill's SKILL.md is honest; its files are read in order until TAMPERED.md fails the digest
            env.put("MCP_CONFORMANCE_SCENARIO", "sep-2640-client-verify-digest");
            Run loaded = conformance(fixture.endpoint().toString());
            assertThat(loaded.code()).isEqualTo(1);
            assertThat(loaded.err()).contains("skill refused (DIGEST)")
                    .contains("skill://release-notes/references/TAMPERED.md failed the digest check");
            assertThat(((Map<String, ?>) stats.request("fixture/stats", Map.of(), RequestOptions.DEFAULT).get("reads")).keySet())
                    .containsOnly("skill://release-notes/SKILL.md", "skill://release-notes/references/STYLE.md",
                            "skill://release-notes/scripts/notes.sh", "skill://release-notes/references/TAMPERED.md");
        }
    }

    @Test
    void anAuthScenarioWithAnUnusableContextIsRefusedByKeyNeverQuotingTheValue() {
        env.put("MCP_CONFORMANCE_SCENARIO", "auth/client-credentials-jwt");
        env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
        env.put("MCP_CONFORMANCE_CONTEXT", """
                {"client_id":"c1","private_key_pem":"-----BEGIN PRIVATE KEY-----\\nnot-a-key-s3cr3t\\n-----END \
                PRIVATE KEY-----","signing_algorithm":"ES256"}""");
        Run badKey = conformance("http://127.0.0.1:9/mcp");
        assertThat(badKey.code()).isEqualTo(2);
        assertThat(badKey.err()).doesNotContain("not-a-key-s3cr3t");
        env.put("MCP_CONFORMANCE_CONTEXT", "{\"client_id\":7}");
        Run badType = conformance("http://127.0.0.1:9/mcp");
        assertThat(badType.code()).isEqualTo(2);
        assertThat(badType.err()).contains("client_id must be a string");
    }

    @Test
    void anAuthScenarioAuthorizesThroughMcpOAuthAgainstARealAuthorizationServer() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture()) {
            // no context: dynamic registration (the fixture has no client-ID metadata documents), authorization code
            env.put("MCP_CONFORMANCE_SCENARIO", "auth/metadata-default");
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            Run r = conformance(fixture.endpoint().toString());
            // the fixture has no test-tool: everything up to the call worked
            assertThat(r.err()).contains("the server lists [echo, whoami]")
                    .contains("the server does not list the tool test-tool");
            assertThat(fixture.stat("registrations")).isEqualTo(1);
            assertThat(fixture.stat("codeExchanges")).isEqualTo(1);
            // a pre-registered client the authorization server does not know: refused, exit 1, the secret unprinted
            env.put("MCP_CONFORMANCE_SCENARIO", "auth/pre-registration");
            env.put("MCP_CONFORMANCE_CONTEXT", "{\"client_id\":\"nobody\",\"client_secret\":\"s3cr3t-prereg\"}");
            Run refused = conformance(fixture.endpoint().toString());
            assertThat(refused.code()).as(refused.err()).isEqualTo(1);
            assertThat(refused.err()).contains("auth/pre-registration failed").doesNotContain("s3cr3t-prereg");
            for (String secret : fixture.secrets()) {
                assertThat(r.err() + r.out() + refused.err()).doesNotContain(secret);
            }
        }
    }

    @Test
    void anUnusableProtocolVersionOrContextIsRefusedByName() {
        env.put("MCP_CONFORMANCE_SCENARIO", "initialize");
        env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2099-01-01");
        Run version = conformance("http://127.0.0.1:9/mcp");
        assertThat(version.code()).isEqualTo(2);
        assertThat(version.err()).contains("MCP_CONFORMANCE_PROTOCOL_VERSION").contains("2099-01-01");
        env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
        env.put("MCP_CONFORMANCE_CONTEXT", "{not json");
        Run context = conformance("http://127.0.0.1:9/mcp");
        assertThat(context.code()).isEqualTo(2);
        assertThat(context.err()).contains("MCP_CONFORMANCE_CONTEXT is not valid JSON");
    }

    @Test
    void schemaPreservationEchoesTheFocalSchemaExactlyAsReceived() throws Exception {
        Object focal = Json.read(FOCAL_SCHEMA);
        try (RecordingMcpServer server = new RecordingMcpServer(answers(List.of(
                tool("json_schema_2020_12_tool", focal),
                tool("json_schema_echo", Map.of("type", "object",
                        "properties", Map.of("schema", Map.of("type", "object")), "required", List.of("schema"))))))) {
            env.put("MCP_CONFORMANCE_SCENARIO", "json-schema-2020-12-preservation");
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            Run r = conformance(server.endpoint());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(calls(server)).singleElement().satisfies(call -> {
                assertThat(call.get("name")).isEqualTo("json_schema_echo");
                assertThat(call.get("arguments")).isEqualTo(Map.of("schema", focal));
            });
            assertThat(server.received()).contains("POST initialize");
        }
    }

    @Test
    void customHeadersMakesTheContextsCallsInOrderWithTheirNullArguments() throws Exception {
        Map<String, Object> schema = Map.of("type", "object", "properties",
                Map.of("region", Map.of("type", "string", "x-mcp-header", "Region")));
        try (RecordingMcpServer server = new RecordingMcpServer(answers(List.of(
                tool("test_custom_headers", schema), tool("test_custom_headers_null", schema))))) {
            env.put("MCP_CONFORMANCE_SCENARIO", "http-custom-headers");
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            env.put("MCP_CONFORMANCE_CONTEXT", """
                    {"name":"http-custom-headers","toolCalls":[
                      {"name":"test_custom_headers","arguments":{"region":"us-west1","empty_val":"","priority":42}},
                      {"name":"test_custom_headers_null","arguments":{"region":"us-east1","verbose":null}}]}""");
            Run r = conformance(server.endpoint());
            assertThat(r.code()).as(r.err()).isZero();
            Map<String, Object> withNull = new LinkedHashMap<>();
            withNull.put("region", "us-east1");
            withNull.put("verbose", null);
            assertThat(calls(server)).extracting(c -> c.get("name"))
                    .containsExactly("test_custom_headers", "test_custom_headers_null");
            assertThat(calls(server).get(0).get("arguments"))
                    .isEqualTo(Map.of("region", "us-west1", "empty_val", "", "priority", 42));
            assertThat(calls(server).get(1).get("arguments")).isEqualTo(withNull);
            int list = server.received().indexOf("POST tools/list");
            assertThat(list).as("tools/list before the calls").isNotNegative()
                    .isLessThan(server.received().indexOf("POST tools/call"));
        }
    }

    @Test
    void customHeadersWithoutToolCallsInTheContextFails() throws Exception {
        try (RecordingMcpServer server = new RecordingMcpServer(answers(List.of()))) {
            env.put("MCP_CONFORMANCE_SCENARIO", "http-custom-headers");
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            Run r = conformance(server.endpoint());
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).contains("MCP_CONFORMANCE_CONTEXT names no toolCalls");
            assertThat(calls(server)).isEmpty();
        }
    }

    @Test
    void invalidToolHeadersCallsEveryListedToolWithItsRequiredArguments() throws Exception {
        try (RecordingMcpServer server = new RecordingMcpServer(answers(List.of(
                tool("valid_tool", Map.of("type", "object", "properties",
                        Map.of("region", Map.of("type", "string", "x-mcp-header", "Region")),
                        "required", List.of("region"))),
                tool("plain", Map.of("type", "object")))))) {
            env.put("MCP_CONFORMANCE_SCENARIO", "http-invalid-tool-headers");
            env.put("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25");
            Run r = conformance(server.endpoint());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(calls(server)).extracting(c -> c.get("name")).containsExactly("valid_tool", "plain");
            assertThat(calls(server).get(0).get("arguments")).isEqualTo(Map.of("region", "conformance"));
        }
    }
}
