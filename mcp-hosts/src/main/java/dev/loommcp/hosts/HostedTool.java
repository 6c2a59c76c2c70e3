package dev.loommcp.hosts;

import dev.loommcp.schema.Tool;
import java.util.Objects;

/**
 * A tool of a registry's server under its namespaced name ({@code server + separator + tool}, for example
 * {@code files__read_file}), the name a host shows a model and passes back to {@link McpServers#callTool}.
 *
 * @param name   the namespaced name, unique in the registry
 * @param server the server's name
 * @param tool   the tool's definition as the server listed it (its own name in {@link Tool#name()})
 */
public record HostedTool(String name, String server, Tool tool) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if a value is {@code null}
     */
    public HostedTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tool, "tool");
    }
}
