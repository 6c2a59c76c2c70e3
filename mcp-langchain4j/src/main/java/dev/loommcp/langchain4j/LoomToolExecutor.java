package dev.loommcp.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.loommcp.McpCancelledException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.schema.CallToolResult;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Executes one MCP tool for LangChain4j through loom-mcp (see {@link LoomToolProvider} for the mapping). The real
 * work is in {@link #executeWithContext}, which LangChain4j's tool loop calls; {@link #execute} is the same call
 * reduced to text, for callers of the older entry point. Thread-safe.
 */
final class LoomToolExecutor implements ToolExecutor {

    private final ToolSource source;
    private final HostedTool tool;
    private final RequestOptions options;

    LoomToolExecutor(ToolSource source, HostedTool tool, RequestOptions options) {
        this.source = source;
        this.tool = tool;
        this.options = options;
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request,
                                                  @Nullable InvocationContext context) {
        Map<String, @Nullable Object> arguments = arguments(request, "MCP tool '" + tool.fullName() + "'");
        try {
            return toResult(source.call(tool, arguments, options));
        } catch (InterruptedException e) {
            throw interrupted("the call of MCP tool '" + tool.fullName() + "'");
        }
    }

    /** The request's arguments, or LangChain4j's argument error naming the tool. */
    static Map<String, @Nullable Object> arguments(ToolExecutionRequest request, String tool) {
        try {
            return Contents.arguments(request.arguments());
        } catch (IllegalArgumentException e) {
            throw new ToolArgumentsException(tool + ": " + e.getMessage());
        }
    }

    /** Sets the interrupt status again (the AI service call ends at its next blocking step) and says what ended. */
    static McpCancelledException interrupted(String what) {
        Thread.currentThread().interrupt();
        return new McpCancelledException(what + " was interrupted; the request was cancelled");
    }

    @Override
    public String execute(ToolExecutionRequest request, @Nullable Object memoryId) {
        return text(executeWithContext(request, null));
    }

    static ToolExecutionResult toResult(CallToolResult result) {
        ToolExecutionResult.Builder b = ToolExecutionResult.builder().isError(result.error());
        Map<String, @Nullable Object> structured = result.structuredContent();
        String text = Contents.joined(result.content());
        if (text.isEmpty() && structured != null) {
            text = Contents.toJson(structured); // exact numbers, big integers included
        }
        if (Contents.hasMedia(result.content())) {
            b.resultContents(Contents.of(result.content()));
        } else {
            b.resultText(text);
        }
        b.result(structured != null ? structured : text);
        if (result.meta() != null && !result.meta().isEmpty()) {
            b.attributes(result.meta());
        }
        return b.build();
    }

    private static String text(ToolExecutionResult r) {
        StringBuilder sb = new StringBuilder();
        for (var c : r.resultContents()) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(c instanceof dev.langchain4j.data.message.TextContent t ? t.text() : "[" + c.type() + "]");
        }
        return sb.toString();
    }
}
