package dev.loommcp.examples.chat;

import dev.loommcp.spring.boot.McpClientCustomizer;
import dev.loommcp.tasks.McpTasks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Task-backed tools (the tasks extension of MCP 2026-07-28): each server's client gets its own {@link McpTasks}
 * (kept across the server's restarts), so a tool the server runs as a task returns through the same tool callback as
 * any other while the client polls the task.
 */
@Configuration(proxyBeanMethods = false)
class TasksConfiguration {

    private final Map<String, McpTasks> tasks = new ConcurrentHashMap<>();

    @Bean
    McpClientCustomizer taskSupport() {
        return (server, client) ->
                client.taskSupport(tasks.computeIfAbsent(server.name(), n -> McpTasks.create()).support());
    }
}
