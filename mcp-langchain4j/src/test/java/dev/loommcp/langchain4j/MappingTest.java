package dev.loommcp.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.PromptMessage;
import dev.loommcp.schema.SamplingMessage;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.Tool;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool results, prompts and sampling requests mapped between loom-mcp's records and LangChain4j's types. */
class MappingTest {

    @Test
    void isErrorTextStructuredContentAndMetaMapToTheToolExecutionResult() {
        ToolExecutionResult failed = LoomToolExecutor.toResult(new CallToolResult(
                List.of(dev.loommcp.schema.TextContent.of("no such city")), null, true, Map.of("trace", "t1")));
        assertThat(failed.isError()).isTrue();
        assertThat(failed.resultText()).isEqualTo("no such city");
        assertThat(failed.attributes()).containsEntry("trace", "t1");

        BigInteger big = new BigInteger("123456789012345678901234567890");
        ToolExecutionResult structured = LoomToolExecutor.toResult(new CallToolResult(List.of(),
                Map.of("count", big), null, null));
        assertThat(structured.isError()).isFalse();
        assertThat(structured.result()).isEqualTo(Map.of("count", big));
        assertThat(structured.resultText()).isEqualTo("{\"count\":123456789012345678901234567890}");

        ToolExecutionResult two = LoomToolExecutor.toResult(new CallToolResult(List.of(
                dev.loommcp.schema.TextContent.of("a"), new EmbeddedResource(
                        TextResourceContents.of("file:///x", "text/plain", "b"), null, null)), null, null, null));
        assertThat(two.resultText()).isEqualTo("a\nb");
        assertThat(two.result()).isEqualTo("a\nb");
    }

    @Test
    void imagesBecomeImageContentsBesideTheText() {
        ToolExecutionResult r = LoomToolExecutor.toResult(CallToolResult.of(List.<ContentBlock>of(
                dev.loommcp.schema.TextContent.of("look"),
                dev.loommcp.schema.ImageContent.of("aGk=", "image/png"))));
        assertThat(r.resultContents()).hasSize(2);
        assertThat(r.resultContents().get(0)).isEqualTo(TextContent.from("look"));
        assertThat(r.resultContents().get(1)).isInstanceOf(ImageContent.class);
        assertThat(((ImageContent) r.resultContents().get(1)).image().base64Data()).isEqualTo("aGk=");
    }

    @Test
    void promptMessagesKeepTheirRolesAndARoleOutsideTheSpecIsRefused() {
        List<ChatMessage> messages = LangChain4jPrompts.toChatMessages(new GetPromptResult("d", List.of(
                new PromptMessage("user", dev.loommcp.schema.TextContent.of("question")),
                new PromptMessage("assistant", dev.loommcp.schema.TextContent.of("answer")),
                new PromptMessage("user", dev.loommcp.schema.ImageContent.of("aGk=", "image/png")),
                new PromptMessage("user", null)), null));
        assertThat(messages).hasSize(3);
        assertThat(((UserMessage) messages.get(0)).singleText()).isEqualTo("question");
        assertThat(((AiMessage) messages.get(1)).text()).isEqualTo("answer");
        assertThat(((UserMessage) messages.get(2)).contents().getFirst()).isInstanceOf(ImageContent.class);
        assertThatThrownBy(() -> LangChain4jPrompts.toChatMessages(new GetPromptResult(null, List.of(
                new PromptMessage("system", dev.loommcp.schema.TextContent.of("x"))), null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'system'");
    }

    @Test
    void aSamplingRequestBecomesAChatRequestAndTheAnswerASamplingResult() {
        List<ChatRequest> asked = new ArrayList<>();
        ChatModel model = new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                asked.add(request);
                return ChatResponse.builder().aiMessage(AiMessage.from("42")).modelName("m-1")
                        .finishReason(FinishReason.LENGTH).build();
            }
        };
        CreateMessageRequest request = new CreateMessageRequest(List.of(
                SamplingMessage.of("user", dev.loommcp.schema.TextContent.of("what?")),
                SamplingMessage.of("assistant", dev.loommcp.schema.TextContent.of("hm")),
                SamplingMessage.of("user", dev.loommcp.schema.TextContent.of("tell me"))),
                null, "be brief", null, 0.2, 10, List.of("END"), null, null, null, null);
        CreateMessageResult result = ChatModelSamplingHandler.of(model).createMessage(request);
        assertThat(result.role()).isEqualTo("assistant");
        assertThat(result.model()).isEqualTo("m-1");
        assertThat(result.stopReason()).isEqualTo("maxTokens");
        assertThat(result.contentBlocks()).containsExactly(dev.loommcp.schema.TextContent.of("42"));
        ChatRequest chat = asked.getFirst();
        assertThat(chat.messages()).hasSize(4).first().isEqualTo(SystemMessage.from("be brief"));
        assertThat(chat.messages().get(2)).isEqualTo(AiMessage.from("hm"));
        assertThat(chat.maxOutputTokens()).isEqualTo(10);
        assertThat(chat.temperature()).isEqualTo(0.2);
        assertThat(chat.stopSequences()).containsExactly("END");

        CreateMessageRequest withTools = new CreateMessageRequest(request.messages(), null, null, null, null, 10,
                null, null, List.of(Tool.of("t", null, null)), null, null);
        assertThatThrownBy(() -> ChatModelSamplingHandler.of(model).createMessage(withTools))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tools");
        assertThatThrownBy(() -> ChatModelSamplingHandler.of(model).createMessage(CreateMessageRequest.of(
                List.of(), 10))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no messages");
        assertThat(asked).hasSize(1);
    }
}
