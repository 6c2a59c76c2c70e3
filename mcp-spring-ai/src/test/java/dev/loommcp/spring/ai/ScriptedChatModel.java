package dev.loommcp.spring.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/** A chat model without an LLM: asks for one tool call, then answers "The server said " + the tool's answer. */
final class ScriptedChatModel implements ChatModel {

    private final String tool;
    private final String arguments;
    private final AtomicInteger turn = new AtomicInteger();
    final List<List<String>> offeredTools = new CopyOnWriteArrayList<>();

    ScriptedChatModel(String tool, String arguments) {
        this.tool = tool;
        this.arguments = arguments;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        if (turn.getAndIncrement() == 0) {
            if (prompt.getOptions() instanceof ToolCallingChatOptions options) {
                offeredTools.add(options.getToolCallbacks().stream()
                        .map(c -> c.getToolDefinition().name()).toList());
            }
            AssistantMessage call = AssistantMessage.builder().content("")
                    .toolCalls(List.of(new AssistantMessage.ToolCall("1", "function", tool, arguments))).build();
            return new ChatResponse(List.of(new Generation(call)));
        }
        var last = (ToolResponseMessage) prompt.getInstructions().getLast();
        String said = last.getResponses().getFirst().responseData();
        return new ChatResponse(List.of(new Generation(new AssistantMessage("The server said " + said))));
    }

    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    static List<String> names(List<ToolCallback> callbacks) {
        return callbacks.stream().map(c -> c.getToolDefinition().name()).toList();
    }
}
