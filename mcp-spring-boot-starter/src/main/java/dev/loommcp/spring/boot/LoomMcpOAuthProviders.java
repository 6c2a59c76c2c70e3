package dev.loommcp.spring.boot;

import dev.loommcp.auth.McpOAuth;
import java.util.Map;

/**
 * The OAuth providers the {@code loom.mcp.servers.<name>.oauth.*} properties made, by server name; closed with the
 * registry by {@link McpServersLifecycle}. A bean of this type defined by the application replaces them (for another
 * grant, or a provider shared with other code).
 *
 * @param providers the providers by server name
 */
public record LoomMcpOAuthProviders(Map<String, McpOAuth> providers) {
    /** Copies the map. */
    public LoomMcpOAuthProviders {
        providers = Map.copyOf(providers);
    }
}
