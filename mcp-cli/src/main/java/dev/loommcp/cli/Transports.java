package dev.loommcp.cli;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.AuthorizationProvider;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.http.SseTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Builds the transport the command line asks for: {@code --stdio} (a child process) or {@code --http} (Streamable
 * HTTP). Stateless and thread-safe.
 */
final class Transports {

    private Transports() {
    }

    /**
     * Builds a stdio transport.
     *
     * @param argv       the server's command line, already split into words
     * @param env        variables to set in the child's environment, in order
     * @param inheritEnv whether the child gets our whole environment (otherwise the transport's safe list only)
     * @param cwd        the child's working directory, or {@code null} for ours
     * @param startup    how long the child may take to send its first message, or {@code null} for the default
     * @param stderr     receives each line the child writes to stderr
     * @param maxMessage the largest message accepted from the child in bytes, or {@code null} for the default
     * @return the transport, not started
     * @throws IllegalArgumentException when the transport refuses the configuration (missing program, bad working
     *                                  directory, bad variable name); the message names what was wrong and never a
     *                                  variable's value
     */
    static McpTransport stdio(List<String> argv, Map<String, String> env, boolean inheritEnv, Path cwd,
                              Duration startup, Consumer<String> stderr, Integer maxMessage) {
        StdioTransport.Builder b = StdioTransport.newBuilder(argv)
                .inheritEnvironment(inheritEnv)
                .stderrListener(stderr);
        env.forEach(b::putEnvironment);
        if (cwd != null) {
            b.workingDirectory(cwd);
        }
        if (startup != null) {
            b.startupTimeout(startup);
        }
        if (maxMessage != null) {
            b.maxMessageBytes(maxMessage);
        }
        return b.build();
    }

    /**
     * Builds a Streamable HTTP transport.
     *
     * @param endpoint the server's MCP endpoint, used exactly as given
     * @param headers    headers to send on every request, in order (values are never printed)
     * @param maxMessage the largest message (JSON body or SSE event) accepted in bytes, or {@code null} for the
     *                   default
     * @param authorization the OAuth provider, or {@code null} for none
     * @return the transport, not started
     * @throws HeaderRefused            when the transport refuses a header (the message names it, never its value)
     * @throws IllegalArgumentException when the transport refuses the endpoint
     */
    static McpTransport http(URI endpoint, List<Map.Entry<String, String>> headers, Integer maxMessage,
                             AuthorizationProvider authorization) {
        HttpTransport.Builder b = HttpTransport.newBuilder(endpoint);
        configure(headers, maxMessage, authorization, b::header, b::maxMessageSize, b::authorization);
        return b.build();
    }

    /**
     * Builds an HTTP+SSE transport (protocol 2024-11-05); the arguments as for
     * {@link #http(URI, List, Integer, AuthorizationProvider)}, {@code sseUrl} being the server's SSE URL.
     *
     * @return the transport, not started
     * @throws HeaderRefused            when the transport refuses a header
     * @throws IllegalArgumentException when the transport refuses the URL
     */
    static McpTransport sse(URI sseUrl, List<Map.Entry<String, String>> headers, Integer maxMessage,
                            AuthorizationProvider authorization) {
        SseTransport.Builder b = SseTransport.newBuilder(sseUrl);
        configure(headers, maxMessage, authorization, b::header, b::maxMessageSize, b::authorization);
        return b.build();
    }

    /**
     * Hands the HTTP options to a builder's setters: each header (a refused one named by its position), the message
     * limit and the authorization provider when given.
     */
    private static void configure(List<Map.Entry<String, String>> headers, Integer maxMessage,
                                  AuthorizationProvider authorization, BiConsumer<String, String> add,
                                  IntConsumer maxMessageSize, Consumer<AuthorizationProvider> auth) {
        if (maxMessage != null) {
            maxMessageSize.accept(maxMessage);
        }
        if (authorization != null) {
            auth.accept(authorization);
        }
        for (int i = 0; i < headers.size(); i++) {
            Map.Entry<String, String> h = headers.get(i);
            try {
                add.accept(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                throw new HeaderRefused(i, e.getMessage());
            }
        }
    }

    /** A header the HTTP transport refused: which one (its position in the list given) and why, never its value. */
    static final class HeaderRefused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** The header's position in the list, from 0. */
        final int index;

        HeaderRefused(int index, String message) {
            super(message);
            this.index = index;
        }
    }
}
