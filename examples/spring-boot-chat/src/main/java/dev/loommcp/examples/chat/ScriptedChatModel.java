package dev.loommcp.examples.chat;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A chat model without an LLM, for the example and its tests: the user's message names the tool to call and its
 * arguments ({@code "call everything__echo {\"message\":\"hi\"}"}; any other message means
 * {@code everything__echo} with {@code {"message":"hi"}}). When the tool was offered it asks for that call, then
 * answers "The server said " + the tool's answer; when it was not offered it says so. Stateless: each request is
 * answered from its own messages.
 */
final class ScriptedChatModel implements ChatModel {

    static final String DEFAULT_TOOL = "everything__echo";
    static final String DEFAULT_ARGUMENTS = "{\"message\":\"hi\"}";

    @Override
    public ChatResponse call(Prompt prompt) {
        Message last = prompt.getInstructions().getLast();
        if (last instanceof ToolResponseMessage response) {
            return answer("The server said " + response.getResponses().getFirst().responseData());
        }
        String text = last.getText() == null ? "" : last.getText().strip();
        String tool = DEFAULT_TOOL;
        String arguments = DEFAULT_ARGUMENTS;
        if (text.startsWith("call ")) {
            String[] parts = text.substring(5).split(" ", 2);
            tool = parts[0];
            arguments = parts.length > 1 ? parts[1] : "{}";
        }
        List<String> offered = prompt.getOptions() instanceof ToolCallingChatOptions o && o.getToolCallbacks() != null
                ? o.getToolCallbacks().stream().map(c -> c.getToolDefinition().name()).toList() : List.of();
        if (!offered.contains(tool)) {
            return answer("I cannot use " + tool + ": it is not among my tools " + offered);
        }
        return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", tool, arguments))).build())));
    }

    private static ChatResponse answer(String text) {
        return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
    }

    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }
}
