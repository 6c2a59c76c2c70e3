package dev.loommcp.spring.boot;

import dev.loommcp.hosts.HttpServerConfig;
import dev.loommcp.hosts.McpServersFile;
import dev.loommcp.hosts.ServerConfig;
import dev.loommcp.hosts.SseServerConfig;
import dev.loommcp.hosts.StdioServerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The servers the properties describe: the file's first, then loom.mcp.servers; mistakes named by property. */
final class ServerConfigs {

    private ServerConfigs() {
    }

    static List<ServerConfig> of(LoomMcpProperties properties) {
        Map<String, ServerConfig> byName = new LinkedHashMap<>();
        Path file = properties.getConfigFile();
        if (file != null) {
            List<ServerConfig> fromFile;
            try {
                fromFile = McpServersFile.read(file);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("loom.mcp.config-file " + file + " could not be read: "
                        + e.getMessage(), e);
            }
            fromFile.forEach(c -> byName.put(c.name(), c));
        }
        properties.getServers().forEach((name, server) -> {
            String where = "loom.mcp.servers." + name;
            boolean hasCommand = server.getCommand() != null && !server.getCommand().isBlank();
            boolean hasUrl = server.getUrl() != null && !server.getUrl().isBlank();
            if (server.getRequestTimeout() != null) {
                PropertyChecks.positive(where + ".request-timeout", server.getRequestTimeout());
            }
            if (!hasCommand && !hasUrl) {
                if (!byName.containsKey(name)) {
                    throw new IllegalStateException(where + " has neither a command nor a url, and the mcpServers file "
                            + (file == null ? "(loom.mcp.config-file is not set)" : file)
                            + " has no server named " + name);
                }
                // settings (request-timeout, oauth) for a server of the file
                String ofTheFile = "a server of the mcpServers file " + file + " (loom.mcp.servers." + name
                        + " only adds request-timeout and oauth to it: set the others in the file)";
                refuse(where, server, List.of("command", "args", "env", "cwd", "transport", "headers"), ofTheFile);
                if (byName.get(name) instanceof StdioServerConfig) {
                    refuse(where, server, List.of("oauth"), "a stdio server of the mcpServers file " + file);
                }
                return;
            }
            if (byName.containsKey(name)) {
                throw new IllegalStateException(where + " is also a server of the mcpServers file " + file
                        + ": give one of them another name, or leave command and url out of " + where
                        + " to only set its request-timeout and oauth");
            }
            if (hasCommand && hasUrl) {
                throw new IllegalStateException(where + " has both a command and a url: set one");
            }
            if (hasCommand) {
                refuse(where, server, URL_ONLY, "a stdio server (it has a command)");
            } else {
                refuse(where, server, List.of("args", "env", "cwd"), "a url server (these apply to a command)");
            }
            byName.put(name, hasCommand ? stdio(name, server) : remote(where, name, server));
        });
        return new ArrayList<>(byName.values());
    }

    /** The settings of a url server only. */
    private static final List<String> URL_ONLY = List.of("transport", "headers", "oauth");

    /**
     * Fails when one of the settings is given.
     *
     * @throws IllegalStateException naming the first setting given and why it does not apply
     */
    private static void refuse(String where, LoomMcpProperties.Server server, List<String> settings, String what) {
        for (String setting : settings) {
            boolean set = switch (setting) {
                case "transport" -> server.getTransport() != null;
                case "headers" -> !server.getHeaders().isEmpty();
                case "oauth" -> server.getOauth().getClientId() != null || server.getOauth().getClientSecret() != null
                        || server.getOauth().getScope() != null;
                case "command" -> server.getCommand() != null;
                case "args" -> !server.getArgs().isEmpty();
                case "env" -> !server.getEnv().isEmpty();
                case "cwd" -> server.getCwd() != null;
                default -> throw new IllegalArgumentException(setting);
            };
            if (set) {
                throw new IllegalStateException(where + "." + setting + " does not apply to " + where.substring(
                        "loom.mcp.servers.".length()) + ", " + what + ": remove it");
            }
        }
    }

    private static ServerConfig stdio(String name, LoomMcpProperties.Server server) {
        return new StdioServerConfig(ServerConfig.checkName(name), server.getCommand(), List.copyOf(server.getArgs()),
                Map.copyOf(server.getEnv()), server.getCwd());
    }

    private static ServerConfig remote(String where, String name, LoomMcpProperties.Server server) {
        URI url;
        try {
            url = URI.create(server.getUrl());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ".url is not a URI: " + e.getMessage(), e);
        }
        String transport = server.getTransport() == null ? "http" : server.getTransport().toLowerCase(Locale.ROOT);
        return switch (transport) {
            case "http", "streamable-http", "streamablehttp" ->
                    new HttpServerConfig(ServerConfig.checkName(name), url, Map.copyOf(server.getHeaders()));
            case "sse" -> new SseServerConfig(ServerConfig.checkName(name), url, Map.copyOf(server.getHeaders()));
            default -> throw new IllegalStateException(where + ".transport is " + server.getTransport()
                    + ": use http (Streamable HTTP) or sse");
        };
    }
}
