package dev.loommcp.examples.compare;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application both MCP client starters are measured in: nothing but Spring Boot and the starters on the class
 * path. Started with {@code spring.ai.mcp.client.enabled=false} it runs on loom-mcp's starter, with
 * {@code loom.mcp.enabled=false} on Spring AI's own (see ComparisonTest).
 */
@SpringBootApplication
public class CompareApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(CompareApplication.class, args);
    }
}
