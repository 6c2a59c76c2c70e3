package dev.loommcp.hosts;

import dev.loommcp.spi.McpTransport;

/**
 * How to reach one MCP server of a registry: a child process over stdio ({@link StdioServerConfig}) or a Streamable
 * HTTP endpoint ({@link HttpServerConfig}), under a name that is unique in the registry. Built in code with the
 * records' factories, or read from an {@code mcpServers} file by {@link McpServersFile}. Immutable and thread-safe;
 * {@code toString()} never shows environment or header values (they may hold secrets).
 */
public sealed interface ServerConfig permits StdioServerConfig, HttpServerConfig {

    /**
     * Returns the server's name in the registry: the prefix of its namespaced tools. Letters, digits, {@code -} and
     * {@code _} only, 1 to 64 characters.
     *
     * @return the name
     */
    String name();

    /**
     * Returns how the server is reached: {@code "stdio"} or {@code "http"}.
     *
     * @return the transport's short name
     */
    String transport();

    /**
     * Builds a new transport for this server (not started; a client owns and closes it). Each call builds a new
     * one: the registry builds one per start and per restart.
     *
     * @return the transport
     * @throws IllegalArgumentException if the transport refuses the configuration (for example a program that cannot
     *                                  be found); the message names the server and never a secret value
     */
    McpTransport newTransport();

    /**
     * Checks a server name: letters, digits, {@code -} and {@code _}, 1 to 64 characters.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException naming what is wrong
     * @throws NullPointerException     if {@code name} is {@code null}
     */
    static String checkName(String name) {
        if (name.isEmpty() || name.length() > 64) {
            throw new IllegalArgumentException("server name '" + name + "' must have 1 to 64 characters");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                throw new IllegalArgumentException("server name '" + name.replaceAll("[\\p{Cntrl}]", "?")
                        + "' may hold only letters, digits, '-' and '_' (it prefixes the server's tool names)");
            }
        }
        return name;
    }
}
