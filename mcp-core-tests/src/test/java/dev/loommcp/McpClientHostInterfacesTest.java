package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The host interfaces ({@link McpToolCaller}, {@link McpSkillServer}; the Rust seed's {@code McpCall} and
 * {@code SkillServer}) as {@link McpClient} implements them: a host that holds only the narrow interface reaches the
 * same requests on the wire.
 */
class McpClientHostInterfacesTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @Test
    void toolCallerCallsTheToolWithMetaAndReportsTheServerName() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call",
                r -> Map.of("content", List.of(Map.of("type", "text", "text", "ok")))), b -> b);
        McpToolCaller caller = s.client();

        assertThat(caller.serverName()).isEqualTo("scripted-server");
        var result = caller.callTool("echo", Map.of("x", 1), RequestOptions.newBuilder()
                .timeout(Duration.ofSeconds(5)).meta(Map.of("run", "r-1")).build());
        assertThat(((TextContent) result.content().getFirst()).text()).isEqualTo("ok");
        JsonRpcMessage.Request sent = s.server().requests("tools/call").getFirst();
        assertThat(sent.params()).containsEntry("name", "echo").containsEntry("arguments", Map.of("x", 1));
        assertThat(sent.params().get("_meta")).isEqualTo(Map.of("run", "r-1"));
    }

    @Test
    void configuredServerNameWinsOverTheSelfReportedOneAndIsKnownBeforeConnect() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b.serverName("files"));
        assertThat(s.client().serverName()).isEqualTo("files");
        s.client().connect();
        assertThat(s.client().serverName()).isEqualTo("files");
        Session anonymous = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        assertThat(anonymous.client().serverName()).isEmpty();
        assertThat(((McpSkillServer) anonymous.client()).supportsPrompts()).isFalse();
    }

    @Test
    void skillServerReportsCapabilitiesAndListsRendersAndReads() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t
                .serverCapabilities(Map.of("prompts", Map.of(), "resources", Map.of()))
                .on("prompts/list", r -> Map.of("prompts", List.of(Map.of("name", "greet"))))
                .on("prompts/get", r -> Map.of("messages", List.of(Map.of("role", "user",
                        "content", Map.of("type", "text", "text", "hello " + ((Map<?, ?>) r.params()
                                .get("arguments")).get("who"))))))
                .on("resources/list", r -> Map.of("resources", List.of(Map.of("uri", "mem://a", "name", "a"))))
                .on("resources/read", r -> Map.of("contents", List.of(Map.of("uri", "mem://a", "text", "A")))),
                b -> b);
        McpSkillServer skills = s.client();

        assertThat(skills.supportsPrompts()).isTrue();
        assertThat(skills.supportsResources()).isTrue();
        assertThat(skills.listAllPrompts()).extracting(Prompt::name).containsExactly("greet");
        assertThat(skills.getPrompt("greet", Map.of("who", "you")).messages()).hasSize(1);
        assertThat(skills.listAllResources()).extracting(Resource::uri).containsExactly("mem://a");
        assertThat(skills.readResource("mem://a").contents()).hasSize(1);
    }

    @Test
    void withoutTheCapabilitiesTheSkillServerSaysSo() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.serverCapabilities(Map.of("tools", Map.of())), b -> b);
        assertThat(s.client().supportsPrompts()).isFalse();
        assertThat(s.client().supportsResources()).isFalse();
    }
}
