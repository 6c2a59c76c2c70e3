/**
 * loom-mcp for LangChain4j: MCP servers' tools as a LangChain4j tool provider
 * ({@link dev.loommcp.langchain4j.LoomToolProvider}, over an {@link dev.loommcp.hosts.McpServers} registry or a list
 * of clients), input schemas as LangChain4j schema trees ({@link dev.loommcp.langchain4j.LangChain4jSchemas}),
 * prompts as chat messages ({@link dev.loommcp.langchain4j.LangChain4jPrompts}) and sampling answered by a
 * LangChain4j {@code ChatModel} ({@link dev.loommcp.langchain4j.ChatModelSamplingHandler}). Built on LangChain4j's
 * core tool seam ({@code dev.langchain4j.service.tool}), not on its MCP module. Arguments are never {@code null}
 * unless a method says so: a {@code null} argument throws {@link java.lang.NullPointerException}.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.loommcp.langchain4j;

import org.jspecify.annotations.NullMarked;
