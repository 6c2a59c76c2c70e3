package dev.loommcp.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.PromptMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * MCP prompts as LangChain4j chat messages: get a prompt through loom-mcp ({@code McpClient.getPrompt},
 * {@code HostedServer.getPrompt}) and pass the messages to a {@code ChatModel} or put them in a chat memory.
 *
 * <pre>{@code
 * List<ChatMessage> messages = LangChain4jPrompts.toChatMessages(
 *         servers.server("everything").getPrompt("simple-prompt", Map.of(), RequestOptions.DEFAULT));
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class LangChain4jPrompts {

    private LangChain4jPrompts() {
    }

    /**
     * Converts a prompt's messages, in order: role {@code user} to a {@link UserMessage} (text, images and audio as
     * such; an embedded resource as its text, a resource link as a line naming its URI), role {@code assistant} to
     * an {@link AiMessage} (its content as text: an assistant message carries no media in LangChain4j). A message
     * without content is skipped. The prompt's {@code description} is not a message and is not included.
     *
     * @param prompt the result of {@code prompts/get}
     * @return the messages (empty when the prompt has none)
     * @throws IllegalArgumentException if a message has a role other than {@code user} or {@code assistant} (the
     *                                  message names it)
     */
    public static List<ChatMessage> toChatMessages(GetPromptResult prompt) {
        Objects.requireNonNull(prompt, "prompt");
        List<ChatMessage> out = new ArrayList<>();
        if (prompt.messages() == null) {
            return out;
        }
        for (PromptMessage m : prompt.messages()) {
            ContentBlock content = m.content();
            if (content == null) {
                continue;
            }
            String role = m.role() == null ? "user" : m.role();
            switch (role) {
                case "user" -> out.add(UserMessage.from(Contents.of(List.of(content))));
                case "assistant" -> out.add(AiMessage.from(Contents.text(content)));
                default -> throw new IllegalArgumentException("prompt message with role '" + role
                        + "': only user and assistant are defined");
            }
        }
        return out;
    }
}
