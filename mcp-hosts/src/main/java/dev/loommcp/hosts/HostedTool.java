package dev.loommcp.hosts;

import dev.loommcp.schema.Tool;
import java.util.Objects;

/**
 * A tool of a registry's server under the name a host shows a model and passes back to {@link McpServers#callTool}:
 * its full name {@code server + separator + tool} (for example {@code files__read_file}) when that matches
 * {@code ^[a-zA-Z0-9_-]{1,64}$}, else a name made to fit (see {@link McpServers}, "Namespaced tools").
 *
 * @param name     the name for a model: unique in the registry, {@code ^[a-zA-Z0-9_-]{1,64}$}
 * @param server   the server's name
 * @param tool     the tool's definition as the server listed it (its own name in {@link Tool#name()})
 * @param fullName {@code server + separator + tool}, which {@link McpServers#callTool} accepts too
 */
public record HostedTool(String name, String server, Tool tool, String fullName) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if a value is {@code null}
     */
    public HostedTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(fullName, "fullName");
    }
}
