/**
 * Spring AI over loom-mcp: the tools of an {@link dev.loommcp.hosts.McpServers} registry as Spring AI
 * {@link org.springframework.ai.tool.ToolCallback}s ({@link dev.loommcp.spring.ai.LoomToolCallbacks}, with a
 * {@link org.springframework.ai.tool.ToolCallbackProvider} for {@code ChatClient}), and a sampling handler backed by
 * a Spring AI {@link org.springframework.ai.chat.model.ChatModel}
 * ({@link dev.loommcp.spring.ai.ChatModelSamplingHandler}).
 *
 * <p>Only Spring AI's tool seam ({@code spring-ai-model}) is used, never its MCP modules. Nulls: as in
 * {@code dev.loommcp}, nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.loommcp.spring.ai;

import org.jspecify.annotations.NullMarked;
