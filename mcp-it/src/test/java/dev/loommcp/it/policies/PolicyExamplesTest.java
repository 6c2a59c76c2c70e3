package dev.loommcp.it.policies;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpVetoedException;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The four interceptor examples of docs/policies.md (issue 30 section 1), as the docs show them (checked here word for
 * word), against the scripted server in both eras: the allow-list, the approval of destructive tools (approved,
 * refused, the deadline passing, the call cancelled), redaction before logging, and the audit line.
 */
@ExtendWith(LeakCheck.class)
class PolicyExamplesTest {

    private final List<McpClient> clients = new ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(McpClient::close);
    }

    private static Map<String, Object> result(Era era, Map<String, Object> body) {
        Map<String, Object> r = new LinkedHashMap<>(body);
        if (era == Era.MODERN) {
            r.put("resultType", "complete");
        }
        return r;
    }

    /** A server with a read-only tool {@code lookup} and a destructive one {@code drop-table}. */
    private record Server(ScriptedTransport wire, McpClient client) {
    }

    private Server connect(Era era, Consumer<McpClient.Builder> config) throws InterruptedException {
        ScriptedTransport t = ScriptedTransport.create();
        if (era == Era.MODERN) {
            t.on("server/discover", r -> result(era, Map.of("supportedVersions", List.of("2026-07-28"),
                    "capabilities", Map.of("tools", Map.of()), "serverInfo", Map.of("name", "db", "version", "1"))));
        }
        t.on("tools/list", r -> result(era, Map.of("tools", List.of(
                Map.of("name", "lookup", "inputSchema", Map.of("type", "object"),
                        "annotations", Map.of("readOnlyHint", true)),
                Map.of("name", "drop-table", "inputSchema", Map.of("type", "object"),
                        "annotations", Map.of("readOnlyHint", false, "destructiveHint", true))))));
        t.on("tools/call", r -> result(era, Map.of("content", List.of(Map.of("type", "text", "text",
                "did " + r.params().get("name"))))));
        McpClient.Builder b = McpClient.newBuilder(t).protocolMode(era == Era.MODERN ? ProtocolMode.MODERN
                : ProtocolMode.LEGACY);
        config.accept(b);
        McpClient client = b.build();
        clients.add(client);
        client.connect();
        return new Server(t, client);
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void theAllowListRefusesOtherToolsBeforeTheyAreSent(Era era) throws Exception {
        Server s = connect(era, b -> b.addInterceptor(new ToolAllowList(Set.of("lookup"))));
        assertThat(s.client().callTool("lookup", Map.of()).text()).isEqualTo("did lookup");
        assertThatThrownBy(() -> s.client().callTool("drop-table", Map.of()))
                .isInstanceOf(McpVetoedException.class).hasMessageContaining("not on the allow-list");
        assertThat(s.wire().requests("tools/call")).hasSize(1);
    }

    /** An approver whose questions the test answers. */
    private static final class Person implements DestructiveToolApproval.Approver {
        final LinkedBlockingQueue<CompletableFuture<Boolean>> asked = new LinkedBlockingQueue<>();
        final List<String> tools = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<Boolean> ask(String server, String tool, Map<String, Object> arguments) {
            CompletableFuture<Boolean> answer = new CompletableFuture<>();
            tools.add(tool);
            asked.add(answer);
            return answer;
        }

        CompletableFuture<Boolean> nextQuestion() throws InterruptedException {
            CompletableFuture<Boolean> q = asked.poll(10, TimeUnit.SECONDS);
            assertThat(q).as("a question to the person").isNotNull();
            return q;
        }
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void destructiveToolsWaitForApprovalUntilTheDeadlineOrTheCancelAndReadOnlyOnesDoNot(Era era) throws Exception {
        Person person = new Person();
        Server s = connect(era, b -> b.addInterceptor(new DestructiveToolApproval(person)));
        s.client().listAllTools(); // the annotations the approval reads
        assertThat(s.client().callTool("lookup", Map.of()).text()).isEqualTo("did lookup");
        assertThat(person.tools).isEmpty();

        CompletableFuture<CallToolResult> approved = s.client().callToolAsync("drop-table", Map.of("name", "t"),
                RequestOptions.ofTimeout(Duration.ofMinutes(5)));
        person.nextQuestion().complete(true);
        assertThat(approved.get(10, TimeUnit.SECONDS).text()).isEqualTo("did drop-table");

        CompletableFuture<CallToolResult> refused = s.client().callToolAsync("drop-table", Map.of("name", "t"),
                RequestOptions.ofTimeout(Duration.ofMinutes(5)));
        person.nextQuestion().complete(false);
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpVetoedException.class);

        // nobody answers: the call's deadline ends the wait
        assertThatThrownBy(() -> s.client().callTool("drop-table", Map.of(),
                RequestOptions.ofTimeout(Duration.ofMillis(300)))).isInstanceOf(McpTimeoutException.class);

        // the caller cancels while the person thinks: the call stops waiting
        person.asked.clear(); // the unanswered question of the call that timed out (before the next call asks)
        CancellationToken token = CancellationToken.create();
        person.asked.clear(); // the unanswered question of the timed-out call; before the next call can ask its own
        CompletableFuture<CallToolResult> cancelled = s.client().callToolAsync("drop-table", Map.of(),
                RequestOptions.newBuilder().token(token).timeout(Duration.ofMinutes(5)).build());
        CompletableFuture<Boolean> question = person.nextQuestion();
        token.cancel("the user closed the dialog");
        assertThatThrownBy(() -> cancelled.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(McpCancelledException.class);
        question.complete(true); // too late: nothing is sent
        assertThat(s.wire().requests("tools/call")).hasSize(2); // lookup and the approved drop-table
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void secretArgumentsAreRedactedInTheLogButSentAsTheyWere(Era era) throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        Server s = connect(era, b -> b.addInterceptor(new RedactedArgumentLog(Set.of("password", "apiKey"),
                log::add)));
        s.client().callTool("lookup", Map.of("user", "ada", "password", "hunter2",
                "nested", Map.of("APIKEY", "k-123", "list", List.of(Map.of("password", "p")))));
        assertThat(log).singleElement().asString().contains("lookup", "ada", "***")
                .doesNotContain("hunter2", "k-123", "=p");
        JsonRpcMessage.Request sent = s.wire().awaitRequest("tools/call");
        assertThat(((Map<?, ?>) sent.params().get("arguments")).get("password")).isEqualTo("hunter2");
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void theAuditLogWritesOneLinePerCallWithTheOutcomeAndTheWireId(Era era) throws Exception {
        List<String> audit = new CopyOnWriteArrayList<>();
        Server s = connect(era, b -> b.addInterceptor(new AuditLog(audit::add))
                .addInterceptor(new ToolAllowList(Set.of("lookup"))));
        s.client().callTool("lookup", Map.of("secret", "s3"));
        assertThatThrownBy(() -> s.client().callTool("drop-table", Map.of()))
                .isInstanceOf(McpVetoedException.class);
        String id = s.wire().awaitRequest("tools/call").id().toString();
        assertThat(audit).hasSize(2);
        assertThat(audit.get(0)).startsWith("audit server=").contains("method=tools/call", "tool=lookup",
                "id=" + id, "outcome=ok").doesNotContain("s3");
        assertThat(audit.get(1)).contains("tool=drop-table", "id=-", "outcome=McpVetoedException");
    }

    @Test
    void theDocsShowTheseExamplesAsTheyAreTested() throws Exception {
        String docs = Files.readString(Path.of(System.getProperty("loommcp.root.dir"), "docs", "policies.md"));
        Path here = Path.of(System.getProperty("loommcp.root.dir"),
                "mcp-it/src/test/java/dev/loommcp/it/policies");
        for (String example : List.of("ToolAllowList", "DestructiveToolApproval", "RedactedArgumentLog", "AuditLog")) {
            String source = Files.readString(here.resolve(example + ".java"));
            String body = source.substring(source.indexOf("import ")); // the docs leave the package out
            assertThat(docs).as("docs/policies.md shows " + example + ".java as it is").contains(body);
        }
    }
}
