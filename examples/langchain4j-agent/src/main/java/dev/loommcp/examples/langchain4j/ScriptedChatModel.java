package dev.loommcp.examples.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.Objects;

/**
 * The example's stand-in for an LLM (no network, no API key): on the user's turn it asks for one tool call, and once
 * the tool answered it replies "The server said " followed by the tool's text. Like a real model's HTTP client it
 * fails when its thread was interrupted. Replace it with any LangChain4j {@code ChatModel} (OpenAI, Anthropic,
 * Ollama...) and the rest of the app stays as it is.
 */
public final class ScriptedChatModel implements ChatModel {

    private final String tool;
    private final String arguments;

    /**
     * A model that asks for one tool.
     *
     * @param tool      the tool's name as the provider offers it, e.g. {@code everything__echo}
     * @param arguments its arguments, a JSON object
     */
    public ScriptedChatModel(String tool, String arguments) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.arguments = Objects.requireNonNull(arguments, "arguments");
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("the model call was interrupted");
        }
        if (request.messages().getLast() instanceof ToolExecutionResultMessage result) {
            return ChatResponse.builder().aiMessage(AiMessage.from("The server said " + result.text())).build();
        }
        return ChatResponse.builder().aiMessage(AiMessage.from(ToolExecutionRequest.builder()
                .id("call-" + System.nanoTime()).name(tool).arguments(arguments).build())).build();
    }
}
