package dev.loommcp;

/**
 * The view of one MCP server a host needs for its tools, prompts and resources (the Rust seed's {@code SkillServer}:
 * {@code server_name}, {@code supports_prompts}, {@code supports_resources}, {@code list_prompts},
 * {@code get_prompt}, {@code list_resources}, {@code read_resource}), with typed results and the SDK's exceptions.
 * It is composed of {@link McpToolCaller} (the server's name and {@code tools/call}), {@link McpPrompts} and
 * {@link McpResources}, and adds only whether the server offers prompts and resources. {@link McpClient} implements
 * it, and so does each server of a host's registry ({@code dev.loommcp.hosts}).
 *
 * <p>Implementations are thread-safe. Each blocking method honours its deadline, token and the thread's interrupt
 * and throws the {@link McpException} family as {@link McpTools} describes.
 */
public interface McpSkillServer extends McpToolCaller, McpPrompts, McpResources {

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
}
