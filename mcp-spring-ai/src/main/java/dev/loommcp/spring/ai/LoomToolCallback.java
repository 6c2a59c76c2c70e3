package dev.loommcp.spring.ai;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.TextContent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * One tool of an {@link McpServers} registry as a Spring AI {@link ToolCallback}, under the name the registry gives it
 * ({@code server__tool}). Made by {@link LoomToolCallbacks}.
 *
 * <p>{@link #call(String, ToolContext)} sends {@code tools/call} through the registry (which starts the server if it
 * is idle, within the call's deadline) and maps the outcome as Spring AI's own MCP callback does:
 * <ul>
 *   <li>success: the text of the result's text blocks joined with newlines when the result has only text blocks and no
 *       {@code structuredContent}; otherwise the {@code structuredContent} as JSON when present, else the JSON array
 *       of the content blocks;</li>
 *   <li>{@code isError: true}: a {@link ToolExecutionException} whose message holds the tool's text (Spring AI's
 *       default processor gives that message to the model);</li>
 *   <li>any other failure (a JSON-RPC error from the server ({@link dev.loommcp.McpRpcException}, spec "Error
 *       handling"), a malformed result ({@link McpProtocolException}), timeout, cancellation, unavailable server,
 *       unknown tool, arguments that are not a JSON object): a {@link ToolExecutionException} naming the tool as the
 *       model knows it ({@code server__tool}) and what went wrong, so Spring AI's default processor tells the model
 *       and the chat request goes on;</li>
 *   <li>an interrupt of the calling thread cancels the request on the wire ({@code notifications/cancelled}) and
 *       fails with a {@link ToolExecutionException} whose cause is the {@link InterruptedException} (not a runtime
 *       exception, so Spring AI rethrows it); the thread's interrupt flag is set again.</li>
 * </ul>
 * The {@link ToolContext} entries become the request's {@code _meta} (spec "_meta"), except {@code null} values and
 * values that are not JSON (a string, number, boolean, or a list or map of those): those are left out.
 *
 * <p>Immutable and thread-safe: many calls may run at once, each on its caller's thread.
 */
public final class LoomToolCallback implements ToolCallback {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final McpServers servers;
    private final String name;
    private final Supplier<ToolDefinition> definition;
    private final RequestOptions options;

    LoomToolCallback(McpServers servers, String name, Supplier<ToolDefinition> definition, RequestOptions options) {
        this.servers = servers;
        this.name = name;
        this.definition = definition;
        this.options = options;
    }

    /** A definition from a listed tool: its name, description (or title, or name) and input schema unchanged. */
    static ToolDefinition definitionOf(HostedTool tool) {
        var mcpTool = tool.tool();
        String description = mcpTool.description() != null ? mcpTool.description() : mcpTool.displayName();
        Map<String, @Nullable Object> schema = mcpTool.inputSchema() != null
                ? mcpTool.inputSchema() : Map.of("type", "object", "properties", Map.of());
        return ToolDefinition.builder().name(tool.name()).description(description)
                .inputSchema(JSON.writeValueAsString(schema)).build();
    }

    /**
     * Returns the tool's definition: the registry's name for it, its description and its input schema as the server
     * sent it, serialized as JSON (no conversion).
     *
     * @return the definition
     */
    @Override
    public ToolDefinition getToolDefinition() {
        return definition.get();
    }

    /**
     * Calls the tool with no tool context; see {@link #call(String, ToolContext)}.
     *
     * @param toolInput the arguments as a JSON object; empty or blank means none
     * @return the result as text
     * @throws ToolExecutionException on failure (see the class description)
     */
    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    /**
     * Calls the tool; the outcomes are listed in the class description. Blocks the calling thread until the result,
     * the deadline of the options given to {@link LoomToolCallbacks.Builder#requestOptions} or an interrupt.
     *
     * @param toolInput   the arguments as a JSON object; empty or blank means none
     * @param toolContext Spring AI's tool context, sent as {@code _meta}; may be {@code null}
     * @return the result as text
     * @throws ToolExecutionException on failure (see the class description)
     */
    @Override
    public String call(String toolInput, @Nullable ToolContext toolContext) {
        Map<String, @Nullable Object> arguments = parseArguments(toolInput);
        RequestOptions request = withMeta(options, toolContext);
        CallToolResult result;
        try {
            result = servers.callTool(name, arguments, request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolExecutionException(getToolDefinition(), e);
        } catch (McpException | IllegalArgumentException e) {
            throw failure("failed: " + e.getMessage(), e);
        }
        if (result.error()) {
            throw failure("returned an error: " + result.text(), null);
        }
        return resultText(result);
    }

    private ToolExecutionException failure(String what, @Nullable Throwable cause) {
        var exception = new IllegalStateException("MCP tool " + name + " " + what, cause);
        return new ToolExecutionException(getToolDefinition(), exception);
    }

    private Map<String, @Nullable Object> parseArguments(@Nullable String toolInput) {
        if (toolInput == null || toolInput.isBlank()) {
            return Map.of();
        }
        Object parsed;
        try {
            parsed = JSON.readValue(toolInput, Object.class);
        } catch (JacksonException e) {
            throw failure("got arguments that are not JSON: " + e.getOriginalMessage(), null);
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw failure("got arguments that are not a JSON object but "
                    + (parsed == null ? "null" : parsed.getClass().getSimpleName()), null);
        }
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> arguments = (Map<String, @Nullable Object>) map;
        return arguments;
    }

    static RequestOptions withMeta(RequestOptions options, @Nullable ToolContext toolContext) {
        if (toolContext == null || toolContext.getContext().isEmpty()) {
            return options;
        }
        Map<String, @Nullable Object> meta = new LinkedHashMap<>(options.meta());
        toolContext.getContext().forEach((key, value) -> {
            if (isJson(value)) {
                meta.put(key, value);
            }
        });
        return options.toBuilder().meta(meta).build();
    }

    private static boolean isJson(@Nullable Object value) {
        return switch (value) {
            case null -> false;
            case String s -> true;
            case Number n -> true;
            case Boolean b -> true;
            case Map<?, ?> m -> m.keySet().stream().allMatch(k -> k instanceof String)
                    && m.values().stream().allMatch(v -> v == null || isJson(v));
            case List<?> l -> l.stream().allMatch(v -> v == null || isJson(v));
            default -> false;
        };
    }

    static String resultText(CallToolResult result) {
        List<ContentBlock> content = result.content() != null ? result.content() : List.of();
        if (result.structuredContent() == null && content.stream().allMatch(b -> b instanceof TextContent)) {
            return result.text();
        }
        return JSON.writeValueAsString(Optional.<Object>ofNullable(result.structuredContent()).orElse(content));
    }

    @Override
    public String toString() {
        return "LoomToolCallback[" + name + "]";
    }
}
