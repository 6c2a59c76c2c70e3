package dev.loommcp.hosts;

import dev.loommcp.spi.McpTransport;

/**
 * How to reach one MCP server of a registry: a child process over stdio ({@link StdioServerConfig}), a Streamable
 * HTTP endpoint ({@link HttpServerConfig}) or an HTTP+SSE endpoint of protocol 2024-11-05 ({@link SseServerConfig}),
 * under a name that is unique in the registry. Built in code with the
 * records' factories, or read from an {@code mcpServers} file by {@link McpServersFile}. Immutable and thread-safe;
 * {@code toString()} never shows environment or header values (they may hold secrets).
 */
public sealed interface ServerConfig permits StdioServerConfig, HttpServerConfig, SseServerConfig {

    /**
     * Returns the server's name in the registry, as the file or the code gave it (VS Code and Cursor allow spaces
     * and any letters): 1 to 128 characters, not only blanks, no control characters. It prefixes the server's
     * namespaced tool names, which the registry makes fit for a model ({@link McpServers#tools()}).
     *
     * @return the name
     */
    String name();

    /**
     * Returns how the server is reached: {@code "stdio"}, {@code "http"} or {@code "sse"}.
     *
     * @return the transport's short name ({@code "sse"} for {@link SseServerConfig})
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
     * Checks a server name: 1 to 128 characters, not only blanks, no control characters. Spaces, punctuation and
     * letters of any script are allowed (hosts' files use them); the registry maps each namespaced tool name to
     * one a model accepts.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException naming what is wrong
     * @throws NullPointerException     if {@code name} is {@code null}
     */
    static String checkName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || name.isBlank()) {
            throw new IllegalArgumentException("server name '" + printableName(name) + "' must have 1 to "
                    + MAX_NAME_LENGTH + " characters, not only blanks");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("server name '" + printableName(name)
                    + "' holds a control character");
        }
        return name;
    }

    /** The longest server name, in UTF-16 units. */
    int MAX_NAME_LENGTH = 128;

    /** A name as it may be shown: at most 64 characters, control characters as '?'. */
    private static String printableName(String name) {
        String cut = name.length() > 64 ? name.substring(0, 64) + "..." : name;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
