package dev.loommcp.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.SamplingMessage;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** {@link ChatModelSamplingHandler}: the request as a Spring AI prompt, the answer back, and the server's round trip. */
@ExtendWith(LeakCheck.class)
class ChatModelSamplingHandlerTest {

    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();
    private final ChatModel model = prompt -> {
        prompts.add(prompt);
        return new ChatResponse(List.of(new Generation(new AssistantMessage("sampled: "
                + prompt.getInstructions().getLast().getText()))));
    };

    @Test
    void theRequestBecomesAPromptWithItsOptionsAndTheAnswerAnAssistantMessage() {
        var request = new CreateMessageRequest(List.of(SamplingMessage.of("user", TextContent.of("hi")),
                SamplingMessage.of("assistant", TextContent.of("hello")), SamplingMessage.of("user",
                        TextContent.of("again"))), null, "be brief", null, 0.5, 42, List.of("STOP"), null, null, null,
                null);
        CreateMessageResult result = ChatModelSamplingHandler.of(model).createMessage(request);
        assertThat(result.role()).isEqualTo("assistant");
        assertThat(result.model()).isEqualTo("spring-ai");
        assertThat(result.contentBlocks()).containsExactly(TextContent.of("sampled: again"));
        Prompt prompt = prompts.getFirst();
        assertThat(prompt.getInstructions()).extracting(m -> m.getMessageType())
                .containsExactly(MessageType.SYSTEM, MessageType.USER, MessageType.ASSISTANT, MessageType.USER);
        assertThat(prompt.getOptions().getMaxTokens()).isEqualTo(42);
        assertThat(prompt.getOptions().getTemperature()).isEqualTo(0.5);
        assertThat(prompt.getOptions().getStopSequences()).containsExactly("STOP");
    }

    @Test
    void contentOtherThanTextIsRefusedNamingItsTypeAndMessage() {
        var request = CreateMessageRequest.of(List.of(SamplingMessage.of("user", TextContent.of("look")),
                SamplingMessage.of("user", ImageContent.of("aGk=", "image/png"))), 10);
        assertThatThrownBy(() -> ChatModelSamplingHandler.of(model).createMessage(request))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sampling message 1 holds image content; this handler samples text only");
        assertThat(prompts).isEmpty();
    }

    @Test
    void theReferenceServersSamplingToolIsAnsweredByTheChatModel() throws Exception {
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("everything", ReferenceServer.stdioCommand()))
                .clientCustomizer((config, b) -> b.samplingHandler(ChatModelSamplingHandler.of(model)))
                .build()) {
            String text = servers.callTool("everything__trigger-sampling-request",
                    Map.of("prompt", "the weather", "maxTokens", 50)).text();
            assertThat(text).contains("sampled: Resource trigger-sampling-request context: the weather");
            assertThat(prompts.getFirst().getInstructions().getFirst().getText())
                    .isEqualTo("You are a helpful test server.");
        }
    }
}
