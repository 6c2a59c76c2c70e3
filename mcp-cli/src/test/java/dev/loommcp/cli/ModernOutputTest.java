package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.config.Era;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.McpRpcException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.ServerCapabilities;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CLI's output for the modern era, without a server: {@code info}'s era lines, {@code listen}'s lines and filter
 * descriptions, and the exit codes and hints of the modern era's failures.
 */
class ModernOutputTest {

    private final StringWriter outText = new StringWriter();
    private final StringWriter errText = new StringWriter();
    private final PrintWriter out = new PrintWriter(outText);
    private final PrintWriter err = new PrintWriter(errText);

    private int report(Throwable e) {
        return Failures.report(e, out, err, false, null, null);
    }

    // ------------------------------------------------------------------------------------------------ tasks (issue 11)

    @Test
    void aFailedTaskIsNamedAsTheTasksEndNotAsAnAnswerToToolsCall() {
        int code = report(new dev.loommcp.tasks.McpTaskFailedException("tools/call", "t-1", null,
                new JsonRpcError(-32603, "simulated internal error", null)));
        err.flush();
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).startsWith(
                "mcp: task t-1 ended failed with JSON-RPC error -32603: simulated internal error")
                .doesNotContain("answered tools/call");
    }

    @Test
    void aTaskCancelledElsewhereIsNotAnInterrupt() {
        int code = report(new dev.loommcp.McpCancelledException("task t-2 was cancelled: cancelled by tasks/cancel"));
        err.flush();
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).contains("(by the server or another client)", "task t-2 was cancelled");
    }

    @Test
    void aTaskTtlIsNotBlamedOnTheTimeoutOption() {
        int ttl = Failures.report(new dev.loommcp.McpTimeoutException("task t-3 passed its TTL of 500 ms (created "
                + "2026-12-01T00:00:00Z) with no terminal status"), out, err, false, null, "--timeout, default 60s");
        int request = Failures.report(new dev.loommcp.McpTimeoutException("tools/call timed out after 60000 ms"),
                out, err, false, null, "--timeout, default 60s");
        err.flush();
        assertThat(ttl).isEqualTo(ExitCodes.TIMEOUT);
        assertThat(request).isEqualTo(ExitCodes.TIMEOUT);
        assertThat(errText.toString().lines().toList()).containsExactly(
                "mcp: timed out: task t-3 passed its TTL of 500 ms (created 2026-12-01T00:00:00Z) with no terminal "
                        + "status",
                "mcp: timed out (--timeout, default 60s): tools/call timed out after 60000 ms");
    }

    @Test
    void anUnknownTaskIsExplainedByTheTransport() {
        dev.loommcp.tasks.McpTaskNotFoundException notFound = new dev.loommcp.tasks.McpTaskNotFoundException("tasks/get", "t-4",
                null, new JsonRpcError(-32602, "unknown task", null));
        Failures.report(notFound, out, err, false, null, null, true);
        err.flush();
        assertThat(errText.toString()).contains("over --stdio every command starts a new server process");
        errText.getBuffer().setLength(0);
        Failures.report(notFound, out, err, false, null, null, false);
        err.flush();
        assertThat(errText.toString()).contains("the server may have forgotten it", "per HTTP session")
                .doesNotContain("--stdio");
    }

    @Test
    void eachInputRequestIsDescribedByItsKindAndMessage() {
        assertThat(TaskCommands.describeInput(Map.of("method", "elicitation/create",
                "params", Map.of("message", "Delete x?")))).isEqualTo("elicitation \"Delete x?\"");
        assertThat(TaskCommands.describeInput(Map.of("method", "sampling/createMessage", "params", Map.of())))
                .startsWith("a sampling request");
        assertThat(TaskCommands.describeInput(Map.of("method", "roots/list"))).startsWith("a roots/list request");
    }

    @Test
    void infoInTheModernEraNamesTheEraTheVersionAndTheSupportedVersions() {
        Render.info(out, Implementation.of("fixture", "0.0.1"), Era.MODERN, "2026-07-28", List.of("2026-07-28"),
                ServerCapabilities.of(), "Use echo.\nThen deploy.");
        out.flush();
        assertThat(outText.toString()).isEqualTo("""
                Server:        fixture 0.0.1
                Era:           modern (server/discover, no session)
                Protocol:      2026-07-28
                Supported:     2026-07-28
                Capabilities:  (none)
                Instructions:
                  Use echo.
                  Then deploy.
                """);
    }

    @Test
    void infoWithoutServerInfoSaysSo() {
        Render.info(out, null, Era.MODERN, null, List.of(), null, null);
        out.flush();
        assertThat(outText.toString()).startsWith("Server:        (the server did not say)\n")
                .contains("Protocol:      (unknown)\n", "Supported:     (none listed)\n");
    }

    @Test
    void listenLinesNameTheKindAndEscapeWhatTheServerSent() {
        assertThat(Listening.line(new JsonRpcMessage.Notification("notifications/tools/list_changed", null)))
                .isEqualTo("tools list changed");
        assertThat(Listening.line(new JsonRpcMessage.Notification("notifications/prompts/list_changed",
                Map.of("_meta", Map.of("io.modelcontextprotocol/subscriptionId", "L1"))))).isEqualTo(
                "prompts list changed");
        assertThat(Listening.line(new JsonRpcMessage.Notification("notifications/resources/list_changed", Map.of())))
                .isEqualTo("resources list changed");
        assertThat(Listening.line(new JsonRpcMessage.Notification("notifications/resources/updated",
                Map.of("uri", "notes://all\u001b[2J")))).isEqualTo("resource updated: notes://all\\x1b[2J");
        assertThat(Listening.line(new JsonRpcMessage.Notification("notifications/tasks",
                Map.of("taskId", "t1", "_meta", Map.of("x", 1))))).isEqualTo("notifications/tasks {\"taskId\":\"t1\"}");
    }

    @Test
    void filtersAreDescribedInWords() {
        assertThat(Listening.describe(SubscriptionFilter.allListChanges())).isEqualTo(
                "tools list changes, prompts list changes, resources list changes");
        assertThat(Listening.describe(new SubscriptionFilter(false, false, false, List.of("a://1", "b://2"))))
                .isEqualTo("updates of a://1, updates of b://2");
        assertThat(Listening.describe(SubscriptionFilter.NONE)).isEqualTo("nothing");
    }

    @Test
    void aMethodRemovedInTheEraIsAUsageErrorNamingTheEraAndTheOption() {
        int code = report(new McpUnsupportedInEraException("ping", Era.MODERN, null));
        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(errText.toString()).isEqualTo("mcp: ping does not exist in the modern protocol era this connection "
                + "speaks\nmcp: the connection speaks the modern era; choose another with --protocol\n");
    }

    @Test
    void inputTheCommandCouldNotGiveExits4NamingTheOptionsThatAnswer() {
        int code = report(new McpInputRequiredException("tools/call: no handler for input 'confirm' "
                + "(elicitation/create)", null));
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).startsWith("mcp: the server wanted input the command could not give: "
                + "tools/call: no handler for input 'confirm'").contains("--elicit ANSWER", "--root DIR");
    }

    @Test
    void aMissingCapabilityExits4NamingItAndTheOptions() {
        int code = report(new McpRpcException("tools/call", RequestId.of(4), new JsonRpcError(-32021,
                "Missing required client capability", Map.of("requiredCapabilities",
                Map.of("elicitation", Map.of("form", Map.of()))))));
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).contains("JSON-RPC error -32021",
                "mcp: the server needs the client capabilities {\"elicitation\":{\"form\":{}}}; answer elicitation "
                        + "with --elicit ANSWER");
    }

    @Test
    void aRefusedInitializeNamesWhatTheServerSpeaks() {
        int code = report(new dev.loommcp.McpRpcException("initialize", RequestId.of(1), new JsonRpcError(-32022,
                "Unsupported protocol version: 2025-11-25", Map.of("supported", List.of("2026-07-28"),
                "requested", "2025-11-25"))));
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).contains("mcp: the server speaks 2026-07-28; choose the era or version with "
                + "--protocol");
    }

    @Test
    void anUnsupportedVersionExits4NamingWhatTheServerSpeaks() {
        int code = report(new McpRpcException("server/discover", RequestId.of(1), new JsonRpcError(
                -32022, "Unsupported protocol version", Map.of("supported", List.of("2027-01-01"),
                "requested", "2026-07-28"))));
        assertThat(code).isEqualTo(ExitCodes.RPC_ERROR);
        assertThat(errText.toString()).contains("mcp: the server speaks 2027-01-01; choose the era or version with "
                + "--protocol");
    }
}
