package dev.loommcp.spring.ai;

import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.SamplingMessage;
import dev.loommcp.schema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * Answers a server's {@code sampling/createMessage} (spec "Sampling") with a Spring AI {@link ChatModel}. Set it on a
 * client ({@code McpClient.Builder.samplingHandler}) or on every server of a registry through
 * {@code McpServers.Builder.clientCustomizer}; it is never set by default (a server could then spend the
 * application's model budget), so sampling stays off until the application opts in.
 *
 * <p>The request's system prompt becomes a {@link SystemMessage}; each message a {@link UserMessage} or an
 * {@link AssistantMessage} with the text of its text blocks; {@code maxTokens}, {@code temperature} and
 * {@code stopSequences} become the prompt's {@link ChatOptions}. The answer is the model's text as an
 * {@code assistant} message, with the model name from the response's metadata (or {@code "spring-ai"} when it has
 * none) and stop reason {@code endTurn}.
 *
 * <p>Only text is sampled: a message with an image, audio or tool block fails the request with an
 * {@link IllegalArgumentException} naming the block's type and the message's index (the client answers the server
 * with an error; see {@link SamplingHandler}). So does a model that answers with no text.
 *
 * <p>Thread-safe when the model is; the model is called on the thread of the request (a virtual thread), which may
 * block.
 */
public final class ChatModelSamplingHandler implements SamplingHandler {

    private final ChatModel model;

    private ChatModelSamplingHandler(ChatModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    /**
     * Returns a handler that samples with the model.
     *
     * @param model the Spring AI chat model
     * @return the handler
     */
    public static ChatModelSamplingHandler of(ChatModel model) {
        return new ChatModelSamplingHandler(model);
    }

    /**
     * Samples one message; see the class description.
     *
     * @param request the server's request
     * @return the model's answer
     * @throws IllegalArgumentException if a message holds content other than text, or the model answered no text
     */
    @Override
    public CreateMessageResult createMessage(CreateMessageRequest request) {
        List<Message> messages = new ArrayList<>();
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            messages.add(new SystemMessage(request.systemPrompt()));
        }
        List<SamplingMessage> input = request.messages() != null ? request.messages() : List.of();
        for (int i = 0; i < input.size(); i++) {
            SamplingMessage message = input.get(i);
            StringBuilder text = new StringBuilder();
            for (ContentBlock block : message.contentBlocks()) {
                if (!(block instanceof TextContent t)) {
                    throw new IllegalArgumentException("sampling message " + i + " holds " + block.type()
                            + " content; this handler samples text only");
                }
                text.append(text.isEmpty() ? "" : "\n").append(t.text());
            }
            messages.add("assistant".equals(message.role())
                    ? new AssistantMessage(text.toString()) : new UserMessage(text.toString()));
        }
        ChatOptions options = ChatOptions.builder().maxTokens(request.maxTokens()).temperature(request.temperature())
                .stopSequences(request.stopSequences()).build();
        ChatResponse response = model.call(new Prompt(messages, options));
        String text = response == null || response.getResult() == null ? null
                : response.getResult().getOutput().getText();
        if (text == null) {
            throw new IllegalArgumentException("the chat model answered the sampling request with no text");
        }
        String modelName = response.getMetadata() != null && response.getMetadata().getModel() != null
                && !response.getMetadata().getModel().isEmpty() ? response.getMetadata().getModel() : "spring-ai";
        return new CreateMessageResult("assistant", TextContent.of(text), modelName, "endTurn", null);
    }

    @Override
    public String toString() {
        return "ChatModelSamplingHandler[" + model + "]";
    }
}
