package dev.loommcp.langchain4j;

import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.Tool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Where the provider's tools come from: an {@link McpServers} registry (its namespaced names, lazy starts, restarts)
 * or a fixed list of clients (named here the same way). Thread-safe: both kinds are.
 */
sealed interface ToolSource {

    /** The separator of namespaced names, as {@link McpServers} uses by default. */
    String SEPARATOR = "__";

    System.Logger LOG = System.getLogger(LoomToolProvider.class.getName());

    /** The tools of every server that is up (a failing server is left out, logged). */
    List<HostedTool> tools(RequestOptions options) throws InterruptedException;

    /** The server names, in order. */
    List<String> servers();

    CallToolResult call(HostedTool tool, @Nullable Map<String, @Nullable Object> arguments, RequestOptions options)
            throws InterruptedException;

    List<Resource> resources(String server, RequestOptions options) throws InterruptedException;

    ReadResourceResult read(String server, String uri, RequestOptions options) throws InterruptedException;

    /** Why a tool of this name cannot be called: its server's state, or that there is no such tool. */
    default String unavailable(String toolName) {
        return "there is no tool named '" + toolName + "' (the MCP servers are: " + String.join(", ", servers())
                + ")";
    }

    /** A registry: its own names and routing. */
    record Registry(McpServers registry) implements ToolSource {
        @Override
        public List<HostedTool> tools(RequestOptions options) throws InterruptedException {
            return registry.tools(options);
        }

        @Override
        public List<String> servers() {
            return registry.names();
        }

        @Override
        public CallToolResult call(HostedTool tool, @Nullable Map<String, @Nullable Object> arguments,
                                   RequestOptions options) throws InterruptedException {
            return registry.server(tool.server()).callTool(tool.tool().name(), arguments, options);
        }

        @Override
        public List<Resource> resources(String server, RequestOptions options) throws InterruptedException {
            return registry.server(server).listAllResources(options);
        }

        @Override
        public ReadResourceResult read(String server, String uri, RequestOptions options)
                throws InterruptedException {
            return registry.server(server).readResource(uri, options);
        }

        @Override
        public String unavailable(String toolName) {
            int at = toolName.indexOf(SEPARATOR);
            String server = at > 0 ? toolName.substring(0, at) : "";
            for (ServerStatus status : registry.statuses()) {
                if (status.name().equals(server) && status.state() != ServerState.READY) {
                    return "MCP tool '" + toolName + "' is not available: server '" + server + "' is "
                            + status.state() + (status.lastError() == null ? "" : " (" + status.lastError() + ")");
                }
            }
            return ToolSource.super.unavailable(toolName);
        }
    }

    /**
     * Clients the caller connected and owns: each is named by {@link McpClient#serverName()} (made unique with a
     * {@code _2}, {@code _3} suffix), its tools listed on every call to {@link #tools} (the client caches the list
     * and refreshes it on {@code notifications/tools/list_changed}).
     */
    final class Clients implements ToolSource {
        private final Map<String, McpClient> byName;

        Clients(List<? extends McpClient> clients) {
            Map<String, McpClient> named = new LinkedHashMap<>();
            for (McpClient c : clients) {
                String base = safe(c.serverName().isEmpty() ? "server" : c.serverName());
                String name = base;
                for (int i = 2; named.containsKey(name); i++) {
                    name = base + "_" + i;
                }
                named.put(name, c);
            }
            this.byName = Map.copyOf(named);
            this.order = List.copyOf(named.keySet());
        }

        private final List<String> order;

        @Override
        public List<HostedTool> tools(RequestOptions options) throws InterruptedException {
            List<HostedTool> out = new ArrayList<>();
            Set<String> taken = new HashSet<>();
            for (String server : order) {
                List<Tool> listed;
                try {
                    listed = byName.get(server).listAllTools(options);
                } catch (McpException e) {
                    LOG.log(System.Logger.Level.WARNING, "MCP server ''{0}'' left out of the tools: {1}", server,
                            e.getMessage());
                    continue;
                }
                for (Tool t : listed) {
                    String full = server + SEPARATOR + t.name();
                    String name = fit(safe(full), taken);
                    taken.add(name);
                    out.add(new HostedTool(name, server, t, full));
                }
            }
            return out;
        }

        @Override
        public List<String> servers() {
            return order;
        }

        @Override
        public CallToolResult call(HostedTool tool, @Nullable Map<String, @Nullable Object> arguments,
                                   RequestOptions options) throws InterruptedException {
            return client(tool.server()).callTool(tool.tool().name(), arguments, options);
        }

        @Override
        public List<Resource> resources(String server, RequestOptions options) throws InterruptedException {
            return client(server).listAllResources(options);
        }

        @Override
        public ReadResourceResult read(String server, String uri, RequestOptions options)
                throws InterruptedException {
            return client(server).readResource(uri, options);
        }

        private McpClient client(String server) {
            McpClient c = byName.get(server);
            if (c == null) {
                throw new IllegalArgumentException("unknown MCP server '" + server + "' (the servers are: "
                        + String.join(", ", order) + ")");
            }
            return c;
        }

        /** Characters a model's tool name may not hold become {@code _}. */
        private static String safe(String name) {
            return name.replaceAll("[^A-Za-z0-9_-]", "_");
        }

        /** At most 64 characters and unique: a long or taken name is cut and given a numeric suffix. */
        private static String fit(String name, Set<String> taken) {
            String candidate = name.length() <= 64 ? name : name.substring(0, 64);
            for (int i = 2; taken.contains(candidate); i++) {
                String suffix = "_" + i;
                candidate = name.substring(0, Math.min(name.length(), 64 - suffix.length())) + suffix;
            }
            return candidate;
        }
    }
}
