package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MCP calls in the forks of an {@link McpScope}, over both send paths of the scripted transport (stdio-like and
 * HTTP-like): five tools on three servers in one scope, the first failure cancelling the other calls on the wire,
 * {@code close()} and the deadline cancelling what is left, and a call inheriting the scope's deadline. The
 * {@link Sessions} extension checks that no request stays pending and no thread is left.
 */
class McpScopeCallsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> textResult(String text) {
        return Map.of("content", List.of(Map.of("type", "text", "text", text)));
    }

    /** A server whose tool {@code slow} never answers, {@code broken} answers an error, and others echo their name. */
    private Session server(Mode mode) throws InterruptedException {
        return sessions.connected(mode, t -> t.on("tools/call", r -> switch ((String) r.params().get("name")) {
            case "slow" -> ScriptedTransport.HOLD;
            case "broken" -> new JsonRpcError(-32000, "broken on purpose", null);
            default -> textResult(r.params().get("name") + " done");
        }), b -> b.requestTimeout(Duration.ofMinutes(5)));
    }

    private static void assertCancelledOnTheWire(Session s, RequestId id) {
        s.server().awaitSent("notifications/cancelled for " + id, m -> m instanceof JsonRpcMessage.Notification n
                && n.method().equals("notifications/cancelled")
                && id.value().equals(((Number) n.params().get("requestId")).longValue()));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void fiveToolsOnThreeServersJoinWithinOneDeadline(Mode mode) throws Exception {
        McpClient search = server(mode).client();
        McpClient database = server(mode).client();
        McpClient weather = server(mode).client();
        try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>allSuccessfulOrThrow(),
                cf -> cf.withName("research").withTimeout(Duration.ofSeconds(30)))) {
            scope.fork(() -> search.callTool("search_docs", Map.of("q", "scopes")));
            scope.fork(() -> search.callTool("search_issues", Map.of("q", "scopes")));
            scope.fork(() -> database.callTool("describe", Map.of("table", "orders")));
            scope.fork(() -> database.callTool("query", Map.of("sql", "select 1")));
            scope.fork(() -> weather.callTool("forecast", Map.of("city", "Oslo")));
            List<String> texts = scope.join().map(t -> t.get().text()).toList();
            assertThat(texts).containsExactly("search_docs done", "search_issues done", "describe done",
                    "query done", "forecast done");
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theFirstFailureCancelsTheOtherCallsOnTheWire(Mode mode) throws Exception {
        Session a = server(mode);
        Session b = server(mode);
        try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>allSuccessfulOrThrow())) {
            McpScope.Subtask<CallToolResult> slow = scope.fork(() -> a.client().callTool("slow", Map.of()));
            RequestId slowId = a.server().awaitRequest("tools/call").id();
            scope.fork(() -> b.client().callTool("broken", Map.of()));
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.FailedException.class)
                    .hasCauseInstanceOf(McpRpcException.class);
            scope.close();
            assertThat(slow.state()).isEqualTo(McpScope.Subtask.State.UNAVAILABLE); // ended after the cancel
            assertCancelledOnTheWire(a, slowId);
        }
        assertThat(a.client().pendingRequestCount()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeCancelsTheCallsLeftOnTheWire(Mode mode) throws Exception {
        Session s = server(mode);
        try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>anySuccessfulResultOrThrow())) {
            scope.fork(() -> s.client().callTool("slow", Map.of()));
            RequestId slowId = s.server().awaitRequest("tools/call").id();
            scope.fork(() -> s.client().callTool("fast", Map.of()));
            assertThat(scope.join().text()).isEqualTo("fast done");
            scope.close();
            assertCancelledOnTheWire(s, slowId);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theDeadlineInJoinCancelsTheCallsOnTheWire(Mode mode) throws Exception {
        Session s = server(mode);
        try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>allSuccessfulOrThrow(),
                cf -> cf.withTimeout(Duration.ofMillis(300)))) {
            scope.fork(() -> s.client().callTool("slow", Map.of()));
            RequestId slowId = s.server().awaitRequest("tools/call").id();
            // the call carries the scope's deadline too: whichever sees it first reports it (McpScope.join's Javadoc)
            assertThatThrownBy(scope::join).satisfiesAnyOf(
                    e -> assertThat(e).isInstanceOf(McpScope.TimeoutException.class),
                    e -> assertThat(e).isInstanceOf(McpScope.FailedException.class)
                            .hasCauseInstanceOf(dev.loommcp.McpTimeoutException.class));
            scope.close();
            assertCancelledOnTheWire(s, slowId);
        }
    }

    /**
     * A call made in a fork carries the scope's deadline to the transport, not the client's default (5 minutes
     * here): its request's scope opens under the fork's.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCallInAForkInheritsTheScopesDeadline(Mode mode) throws Exception {
        Session s = server(mode);
        Duration timeout = Duration.ofSeconds(20);
        try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>allSuccessfulOrThrow(),
                cf -> cf.withTimeout(timeout))) {
            long latestScopeDeadline = System.nanoTime() + timeout.toNanos();
            scope.fork(() -> s.client().callTool("slow", Map.of()));
            JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
            long sentDeadline = s.server().recordOf(m -> m instanceof JsonRpcMessage.Request r
                    && r.id().equals(request.id())).deadlineNanos();
            assertThat(sentDeadline - latestScopeDeadline).as("the call's deadline is the scope's, not 5 minutes")
                    .isLessThanOrEqualTo(0);
        }
    }
}
