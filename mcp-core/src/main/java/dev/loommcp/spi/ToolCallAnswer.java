package dev.loommcp.spi;

import dev.loommcp.schema.CallToolResult;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a server answered to a {@code tools/call} sent through {@link TaskChannel#callTool}: the final result, or a task
 * that the server created instead (the answer is not final yet). The core tells the two apart without reading the
 * task: a modern answer with {@code resultType: "task"} (MCP tasks extension, MODERN-ERA.md C.5.2), or a legacy
 * answer to a call sent with a {@link TaskAugmentation} that has a {@code task} member (C.6.3); the task's shape is
 * the {@link TaskSupport}'s to read.
 */
public sealed interface ToolCallAnswer permits ToolCallAnswer.Final, ToolCallAnswer.Pending {

    /**
     * Returns the tool that was called.
     *
     * @return the tool's name
     */
    String toolName();

    /**
     * The final result, decoded and screened as {@code McpClient.callTool} screens it (the tool's output schema).
     *
     * @param toolName the tool that was called
     * @param result   the result
     */
    record Final(String toolName, CallToolResult result) implements ToolCallAnswer {

        /**
         * Checks the components.
         *
         * @throws NullPointerException if a component is {@code null}
         */
        public Final {
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(result, "result");
        }
    }

    /**
     * The server created a task: the answer is not final yet. Handed to {@link TaskSupport#awaitResult} when it
     * answered a plain {@code McpClient.callTool}.
     *
     * @param toolName the tool that was called
     * @param creation the answer as plain JSON, unread by the core: modern flat {@code CreateTaskResult}
     *                 ({@code resultType: "task"}), legacy {@code {"task": {...}}}; copied, unmodifiable
     */
    record Pending(String toolName, Map<String, @Nullable Object> creation) implements ToolCallAnswer {

        /**
         * Checks and copies the components.
         *
         * @throws NullPointerException if a component is {@code null}
         */
        public Pending {
            Objects.requireNonNull(toolName, "toolName");
            creation = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
                    Objects.requireNonNull(creation, "creation")));
        }
    }
}
