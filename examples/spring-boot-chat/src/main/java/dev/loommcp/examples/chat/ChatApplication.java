package dev.loommcp.examples.chat;

import dev.loommcp.spring.ai.LoomToolCallbacks;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A ChatClient application whose tools come from the MCP servers of {@code application.properties}
 * ({@code loom.mcp.servers.*}) through loom-mcp's starter. The chat model is {@link ScriptedChatModel}, a stand-in
 * for a real one (add a Spring AI model starter and remove the bean). Run with {@code --chat.question="say hi"} to
 * print one answer.
 */
@SpringBootApplication
public class ChatApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(ChatApplication.class, args);
    }

    @Bean
    ChatModel chatModel() {
        return new ScriptedChatModel();
    }

    /** The tools are passed as a provider: listed when a request is made, so the application starts no server. */
    @Bean
    ChatClient chatClient(ChatModel model, LoomToolCallbacks mcpTools) {
        return ChatClient.builder(model).defaultTools(mcpTools.asProvider())
                .defaultToolContext(Map.of("app", "spring-boot-chat")).build();
    }

    @Bean
    ApplicationRunner askOnce(ChatClient chat, org.springframework.core.env.Environment env) {
        return args -> {
            String question = env.getProperty("chat.question");
            if (question != null) {
                System.out.println(chat.prompt().user(question).call().content());
            }
        };
    }
}
