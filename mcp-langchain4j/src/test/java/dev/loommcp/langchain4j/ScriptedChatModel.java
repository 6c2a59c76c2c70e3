package dev.loommcp.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A chat model without an LLM: on a user turn it asks for one tool call (name and JSON arguments given), and once
 * the tool answered it replies "The server said " + the tool's text. Like a model's HTTP client, it throws when its
 * thread is interrupted. Records the tool names it was offered on each turn.
 */
final class ScriptedChatModel implements ChatModel {

    private final String tool;
    private final String arguments;
    final List<List<String>> offered = new CopyOnWriteArrayList<>();
    final List<ToolExecutionResultMessage> results = new CopyOnWriteArrayList<>();

    ScriptedChatModel(String tool, String arguments) {
        this.tool = tool;
        this.arguments = arguments;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted: the model call is abandoned");
        }
        offered.add(request.toolSpecifications().stream().map(ToolSpecification::name).toList());
        if (request.messages().getLast() instanceof ToolExecutionResultMessage last) {
            results.add(last);
            return ChatResponse.builder().aiMessage(AiMessage.from("The server said " + last.text())).build();
        }
        return ChatResponse.builder().aiMessage(AiMessage.from(ToolExecutionRequest.builder()
                .id("call-" + offered.size()).name(tool).arguments(arguments).build())).build();
    }

    /** The AI service of the tests. */
    interface Assistant {
        String chat(String userMessage);
    }
}
