package dev.loommcp.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.SamplingMessage;
import dev.loommcp.schema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A loom-mcp {@link SamplingHandler} that answers a server's {@code sampling/createMessage} with a LangChain4j
 * {@link ChatModel} (MCP "Sampling"). Set it on each client that may sample, for example
 * {@code McpServers.newBuilder().clientCustomizer((config, b) -> b.samplingHandler(ChatModelSamplingHandler.of(model)))};
 * setting it declares the {@code sampling} capability, so leave it off for servers that should not spend the
 * application's model budget (sampling is off by default in loom-mcp).
 *
 * <p>The request maps to a {@link ChatRequest}: {@code systemPrompt} to a leading {@link SystemMessage}, each
 * message by role ({@code user} to a {@link UserMessage} with text, images and audio; {@code assistant} to an
 * {@link AiMessage} of its text), {@code maxTokens} to {@code maxOutputTokens}, {@code temperature} and
 * {@code stopSequences} as such. {@code modelPreferences} and {@code includeContext} are not mapped (the model is the
 * one given here; no other server's context is added). The answer is an {@code assistant} message with the model's
 * text, the model name the response reports (else {@code "langchain4j"}), and the finish reason as
 * {@code stopReason} ({@code STOP} {@code endTurn}, {@code LENGTH} {@code maxTokens}, otherwise none).
 *
 * <p>Thread-safe if the model is (LangChain4j's are). The model call blocks the handler's thread; loom-mcp
 * interrupts it when the server cancels the request or its deadline passes.
 */
public final class ChatModelSamplingHandler implements SamplingHandler {

    private final ChatModel model;

    private ChatModelSamplingHandler(ChatModel model) {
        this.model = model;
    }

    /**
     * A handler backed by the model.
     *
     * @param model the model that answers
     * @return the handler
     */
    public static ChatModelSamplingHandler of(ChatModel model) {
        return new ChatModelSamplingHandler(Objects.requireNonNull(model, "model"));
    }

    /**
     * Answers one request with the model (see the class comment).
     *
     * @param request the server's request
     * @return the model's answer
     * @throws IllegalArgumentException if the request asks for tool use ({@code tools}, sampling with tools is not
     *                                  mapped), has no messages, or has a message with another role than
     *                                  {@code user} or {@code assistant}; loom-mcp answers the server with an error
     * @throws RuntimeException         whatever the model throws
     */
    @Override
    public CreateMessageResult createMessage(CreateMessageRequest request) {
        Objects.requireNonNull(request, "request");
        if (request.tools() != null && !request.tools().isEmpty()) {
            throw new IllegalArgumentException("sampling with tools is not supported by ChatModelSamplingHandler");
        }
        List<ChatMessage> messages = new ArrayList<>();
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            messages.add(SystemMessage.from(request.systemPrompt()));
        }
        if (request.messages() == null || request.messages().isEmpty()) {
            throw new IllegalArgumentException("the sampling request has no messages");
        }
        for (SamplingMessage m : request.messages()) {
            List<ContentBlock> blocks = m.contentBlocks();
            String role = m.role() == null ? "user" : m.role();
            switch (role) {
                case "user" -> messages.add(UserMessage.from(Contents.of(blocks)));
                case "assistant" -> messages.add(AiMessage.from(Contents.joined(blocks)));
                default -> throw new IllegalArgumentException("sampling message with role '" + role
                        + "': only user and assistant are defined");
            }
        }
        ChatRequest.Builder chat = ChatRequest.builder().messages(messages);
        if (request.maxTokens() > 0) {
            chat.maxOutputTokens(request.maxTokens());
        }
        if (request.temperature() != null) {
            chat.temperature(request.temperature());
        }
        if (request.stopSequences() != null && !request.stopSequences().isEmpty()) {
            chat.stopSequences(request.stopSequences());
        }
        ChatResponse response = model.chat(chat.build());
        AiMessage answer = response.aiMessage();
        String text = answer == null || answer.text() == null ? "" : answer.text();
        String modelName = response.modelName() != null ? response.modelName() : "langchain4j";
        FinishReason finish = response.finishReason();
        String stopReason = finish == FinishReason.STOP ? "endTurn" : finish == FinishReason.LENGTH ? "maxTokens"
                : null;
        return new CreateMessageResult("assistant", TextContent.of(text), modelName, stopReason, null);
    }
}
