package dev.loommcp;

import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.CompletionReference;
import dev.loommcp.schema.LoggingLevel;
import java.util.Map;
import dev.loommcp.event.McpClientListener;
import org.jspecify.annotations.Nullable;

/**
 * The MCP utilities a client uses: {@code ping} (MCP 2025-11-25 "Base protocol: Utilities: Ping"), the server's log
 * level ("Server features: Utilities: Logging"; the messages reach {@link McpClientListener#onLog}) and argument
 * completion for prompts and resource templates ("Server features: Utilities: Completion"). {@link McpClient}
 * implements it.
 *
 * <p>Implementations are thread-safe. Each blocking method comes in two forms, the shorter one using
 * {@link RequestOptions#DEFAULT}; each honours its deadline, token and the thread's interrupt and throws the
 * {@link McpException} family as {@link McpTools} describes. Null arguments follow the package's null policy
 * ({@code dev.loommcp}).
 */
public interface McpUtilities {

    /**
     * Sends {@code ping} and waits for the answer (MCP "Ping").
     *
     * @throws McpException         when the ping fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    default void ping() throws InterruptedException {
        ping(RequestOptions.DEFAULT);
    }

    /**
     * Sends {@code ping} with per-call options and waits for the answer. Legacy era only: the modern era removed
     * {@code ping}.
     *
     * @param options timeout, token
     * @throws McpUnsupportedInEraException in the modern era, which removed {@code ping} (nothing is sent)
     * @throws McpException         when the ping fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    void ping(RequestOptions options) throws InterruptedException;

    /**
     * Sets the minimum level of {@code notifications/message} the server sends ({@code logging/setLevel}).
     *
     * @param level the level
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default void setLoggingLevel(LoggingLevel level) throws InterruptedException {
        setLoggingLevel(level, RequestOptions.DEFAULT);
    }

    /**
     * Sets the server's minimum log level with per-call options. Legacy era only: in the modern era a request asks
     * for log messages itself with {@code _meta["io.modelcontextprotocol/logLevel"]} (see
     * {@link RequestOptions.Builder#putMeta}).
     *
     * @param level   the level
     * @param options timeout, deadline, token, extra {@code _meta}
     * @throws McpUnsupportedInEraException in the modern era, which removed {@code logging/setLevel} (nothing is sent)
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    void setLoggingLevel(LoggingLevel level, RequestOptions options) throws InterruptedException;

    /**
     * Asks for argument completions ({@code completion/complete}, MCP "Utilities: Completion") of a prompt's or
     * resource template's argument.
     *
     * @param reference     the prompt or resource template the argument belongs to
     * @param argumentName  the argument's name
     * @param argumentValue what was typed so far
     * @param context       values of arguments already chosen ({@code context.arguments}), or {@code null}
     * @return the completion values
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default CompleteResult complete(CompletionReference reference, String argumentName, String argumentValue,
                                    @Nullable Map<String, String> context) throws InterruptedException {
        return complete(reference, argumentName, argumentValue, context, RequestOptions.DEFAULT);
    }

    /**
     * Asks for argument completions with per-call options.
     *
     * @param reference     the prompt or resource template the argument belongs to
     * @param argumentName  the argument's name
     * @param argumentValue what was typed so far
     * @param context       values of arguments already chosen, or {@code null}
     * @param options       timeout, deadline, token, extra {@code _meta}
     * @return the completion values
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    CompleteResult complete(CompletionReference reference, String argumentName, String argumentValue,
                            @Nullable Map<String, String> context, RequestOptions options) throws InterruptedException;
}
