package dev.loommcp;

import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ListPromptsResult;
import dev.loommcp.schema.Prompt;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The prompts of an MCP server (MCP 2025-11-25 "Server features: Prompts"): listing and rendering them (argument
 * completion is in {@link McpUtilities}). {@link McpClient} implements it; code that only renders prompts can depend
 * on this interface.
 *
 * <p>Implementations are thread-safe. Each blocking method comes in two forms, the shorter one using
 * {@link RequestOptions#DEFAULT}; each honours its deadline, token and the thread's interrupt and throws the
 * {@link McpException} family as {@link McpTools} describes. Null arguments follow the package's null policy
 * ({@code dev.loommcp}).
 *
 * <p>Listings keep what they can use: a malformed entry of a list result (a prompt whose fields do not have the MCP
 * schema's types, one without a name, a value that is not an object) is left out with one {@code WARNING} on the
 * {@code dev.loommcp.client} logger naming the method, the entry's index and what was wrong (never its content),
 * and the other entries are returned. A result whose envelope is malformed (the array missing or not an array, a
 * {@code nextCursor} that is not a string in a complete listing) fails with {@link McpProtocolException}.
 */
public interface McpPrompts {

    /**
     * Reads one page of {@code prompts/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ListPromptsResult listPrompts(@Nullable String cursor) throws InterruptedException {
        return listPrompts(cursor, RequestOptions.DEFAULT);
    }

    /**
     * Reads one page of {@code prompts/list} with per-call options.
     *
     * @param cursor  the cursor, or {@code null}
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the page
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    ListPromptsResult listPrompts(@Nullable String cursor, RequestOptions options) throws InterruptedException;

    /**
     * Reads every page of {@code prompts/list}.
     *
     * @return the prompts
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<Prompt> listAllPrompts() throws InterruptedException {
        return listAllPrompts(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code prompts/list} with per-page options.
     *
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the prompts
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<Prompt> listAllPrompts(RequestOptions options) throws InterruptedException;

    /**
     * Renders a prompt ({@code prompts/get}).
     *
     * @param name      the prompt name
     * @param arguments the arguments (string values), or {@code null}
     * @return the rendered messages
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default GetPromptResult getPrompt(String name,
                                      @Nullable Map<String, String> arguments) throws InterruptedException {
        return getPrompt(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Renders a prompt with per-call options.
     *
     * @param name      the prompt name
     * @param arguments the arguments, or {@code null}
     * @param options   timeout, token
     * @return the rendered messages
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    GetPromptResult getPrompt(String name, @Nullable Map<String, String> arguments, RequestOptions options)
            throws InterruptedException;

}
