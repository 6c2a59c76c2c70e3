package dev.loommcp;

import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import java.util.List;
import java.util.Map;

/**
 * The narrow view of one MCP server a host needs for prompts and resources (the Rust seed's {@code SkillServer}:
 * {@code server_name}, {@code supports_prompts}, {@code supports_resources}, {@code list_prompts},
 * {@code get_prompt}, {@code list_resources}, {@code read_resource}), with typed results and the SDK's exceptions.
 * {@link McpClient} implements it, and so does each server of a host's registry ({@code dev.loommcp.hosts}).
 *
 * <p>Implementations are thread-safe. Each blocking method comes in two forms, the shorter one using
 * {@link RequestOptions#DEFAULT}; each honours its deadline, token and the thread's interrupt and throws the
 * {@link McpException} family as {@link McpTools} describes.
 */
public interface McpSkillServer {

    /**
     * Returns the name of the server; see {@link McpToolCaller#serverName()}.
     *
     * @return the name; never {@code null} (empty when unknown)
     */
    String serverName();

    /**
     * Tells whether the server declared the {@code prompts} capability (in {@code initialize} or
     * {@code server/discover}). Never blocks.
     *
     * @return whether it offers prompts; {@code false} before it is connected
     */
    boolean supportsPrompts();

    /**
     * Tells whether the server declared the {@code resources} capability. Never blocks.
     *
     * @return whether it offers resources; {@code false} before it is connected
     */
    boolean supportsResources();

    /**
     * Reads every page of {@code prompts/list}.
     *
     * @return the prompts in server order
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
     * @return the prompts in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<Prompt> listAllPrompts(RequestOptions options) throws InterruptedException;

    /**
     * Renders a prompt ({@code prompts/get}).
     *
     * @param name      the prompt name
     * @param arguments the arguments (string values), or {@code null}
     * @return the rendered messages
     * @throws McpException         when the call fails (an unknown prompt is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    default GetPromptResult getPrompt(String name, Map<String, String> arguments) throws InterruptedException {
        return getPrompt(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Renders a prompt with per-call options.
     *
     * @param name      the prompt name
     * @param arguments the arguments (string values), or {@code null}
     * @param options   timeout, deadline, token, extra {@code _meta}
     * @return the rendered messages
     * @throws McpException         when the call fails (an unknown prompt is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    GetPromptResult getPrompt(String name, Map<String, String> arguments, RequestOptions options)
            throws InterruptedException;

    /**
     * Reads every page of {@code resources/list}.
     *
     * @return the resources in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<Resource> listAllResources() throws InterruptedException {
        return listAllResources(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code resources/list} with per-page options.
     *
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the resources in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<Resource> listAllResources(RequestOptions options) throws InterruptedException;

    /**
     * Reads a resource ({@code resources/read}).
     *
     * @param uri the resource URI
     * @return the contents (text and binary blocks, typed)
     * @throws McpException         when the call fails (a missing resource is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ReadResourceResult readResource(String uri) throws InterruptedException {
        return readResource(uri, RequestOptions.DEFAULT);
    }

    /**
     * Reads a resource with per-call options.
     *
     * @param uri     the resource URI
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the contents
     * @throws McpException         when the call fails (a missing resource is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    ReadResourceResult readResource(String uri, RequestOptions options) throws InterruptedException;
}
