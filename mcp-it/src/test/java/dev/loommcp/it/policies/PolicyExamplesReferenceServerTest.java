package dev.loommcp.it.policies;

import dev.loommcp.McpClient;
import dev.loommcp.McpVetoedException;
import dev.loommcp.RequestOptions;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The examples of docs/policies.md against the reference server over stdio (a real child process), whose tools carry
 * annotations ({@code readOnlyHint}, {@code destructiveHint: false}): the chain audits, redacts, checks the
 * allow-list and asks for approval only where the server's annotations do not rule destruction out.
 */
@ExtendWith(LeakCheck.class)
class PolicyExamplesReferenceServerTest {

    private McpClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theFourExamplesTogetherOnTheReferenceServer() throws Exception {
        List<String> audit = new CopyOnWriteArrayList<>();
        List<String> log = new CopyOnWriteArrayList<>();
        List<String> asked = new CopyOnWriteArrayList<>();
        RecordingTransport wire = new RecordingTransport(StdioTransport.newBuilder(ReferenceServer.stdioCommand())
                .build());
        client = McpClient.newBuilder(wire).requestTimeout(Duration.ofSeconds(30))
                .addInterceptor(new AuditLog(audit::add))
                .addInterceptor(new ToolAllowList(Set.of("echo", "get-sum")))
                .addInterceptor(new RedactedArgumentLog(Set.of("message"), log::add))
                .addInterceptor(new DestructiveToolApproval((server, tool, arguments) -> {
                    asked.add(tool);
                    return CompletableFuture.completedFuture(true);
                }))
                .build();
        client.connect();

        // before a listing the client cannot know a tool is harmless: the approval asks
        assertThat(client.callTool("echo", Map.of("message", "first")).text()).isEqualTo("Echo: first");
        assertThat(asked).containsExactly("echo");

        List<Tool> tools = client.listAllTools();
        Tool echo = tools.stream().filter(t -> t.name().equals("echo")).findFirst().orElseThrow();
        assertThat(DestructiveToolApproval.mayBeDestructive(echo)).isFalse(); // the server says read-only
        CallToolResult r = client.callTool("echo", Map.of("message", "private"));
        assertThat(r.text()).isEqualTo("Echo: private"); // the server got the real value
        assertThat(asked).containsExactly("echo"); // not asked again
        assertThat(log).allSatisfy(line -> assertThat(line).contains("***").doesNotContain("private"));

        assertThatThrownBy(() -> client.callTool("get-env", Map.of())).isInstanceOf(McpVetoedException.class);
        assertThat(wire.sent()).noneMatch(m -> m.toString().contains("get-env"));

        assertThat(client.callTool("get-sum", Map.of("a", 2, "b", 3), RequestOptions.DEFAULT).text())
                .contains("5");
        assertThat(audit).hasSize(5); // echo, tools/list, echo, get-env (vetoed), get-sum
        assertThat(audit).filteredOn(l -> l.contains("tool=get-env")).singleElement().asString()
                .contains("outcome=McpVetoedException", "id=-");
        assertThat(audit).filteredOn(l -> l.contains("tool=get-sum")).singleElement().asString()
                .contains("outcome=ok").containsPattern("id=\\d+");
    }
}
