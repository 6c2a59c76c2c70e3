package dev.loommcp.intercept;

import dev.loommcp.internal.json.Json;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Objects;

/**
 * The answer to an intercepted request, as the chain passes it back out: the result object as plain JSON (as the
 * server sent it, or as an interceptor made it), and whether it came from the wire. Errors are not responses: a
 * JSON-RPC error is thrown by {@link McpInterceptor.Chain#proceed} as {@link dev.loommcp.McpRpcException}. An
 * interceptor answers without sending by returning {@link #of(Map)} or {@link #of(Record)} (for example a
 * {@link dev.loommcp.schema.CallToolResult}); the chain checks it as the method's result (a malformed one fails with
 * {@link dev.loommcp.McpInterceptorException} naming the interceptor), and the caller then gets it as if the server
 * had sent it (a {@code tools/call} result is still checked against the tool's output schema).
 *
 * <p>The client implements it for the server's answers; {@link #of} for an interceptor's own. Implementations are
 * immutable and thread-safe; of a response of another implementation the client takes {@link #result()}.
 */
public interface McpResponse {

    /**
     * Returns a response made by an interceptor: nothing is sent.
     *
     * @param result the result object as plain JSON (maps, lists, strings, numbers, booleans, {@code null} values),
     *               for example {@code Map.of("content", List.of())}; not copied: do not change it afterwards. The
     *               chain checks it as the method's result where it receives it ({@link #of(Record)} says how)
     * @return the response
     * @throws NullPointerException if {@code result} is {@code null}
     */
    static McpResponse of(Map<String, @Nullable Object> result) {
        return new AnsweredResponse(Objects.requireNonNull(result, "result"));
    }

    /**
     * Returns a response made by an interceptor from a typed result (a record of {@code dev.loommcp.schema} such as
     * {@link dev.loommcp.schema.CallToolResult} or {@link dev.loommcp.schema.GetPromptResult}), converted to plain
     * JSON: nothing is sent. A record, so that a value that is no result (a plain string) does not compile.
     *
     * <p>The chain checks an interceptor's answer where it receives it, as the caller reads the method's result (a
     * {@code tools/call} answer needs a {@code content} array, a {@code prompts/get} answer its {@code messages}, a
     * {@code resources/read} answer its {@code contents}); a malformed one fails the call with
     * {@link dev.loommcp.McpInterceptorException} naming the interceptor, its cause an
     * {@link dev.loommcp.McpProtocolException} saying what is wrong.
     *
     * @param result the result record
     * @return the response
     * @throws NullPointerException     if {@code result} is {@code null}
     * @throws IllegalArgumentException if {@code result} does not convert to a JSON object
     */
    static McpResponse of(Record result) {
        Objects.requireNonNull(result, "result");
        return new AnsweredResponse(Json.toPlainObject(result));
    }

    /**
     * Returns the result object as plain JSON, read-only by contract (do not change it: return a new response
     * instead).
     *
     * @return the result object
     * @throws dev.loommcp.McpProtocolException if the server's result is not a JSON object
     */
    Map<String, @Nullable Object> result();

    /**
     * Returns whether the server sent this result; {@code false} when an interceptor made it (nothing was sent).
     *
     * @return {@code true} for a result from the wire
     */
    boolean fromServer();

    /**
     * Returns whether this is a tool result that reports an error ({@code isError: true}, MCP "Error Handling" of
     * tools): the call itself succeeded.
     *
     * @return {@code true} if the result carries {@code isError: true}
     */
    boolean isToolError();
}
