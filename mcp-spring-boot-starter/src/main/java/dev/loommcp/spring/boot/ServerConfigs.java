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
            if (!hasCommand && !hasUrl) {
                if (!byName.containsKey(name)) {
                    throw new IllegalStateException(where + " has neither a command nor a url, and the mcpServers file "
                            + (file == null ? "(loom.mcp.config-file is not set)" : file)
                            + " has no server named " + name);
                }
                return;   // settings (request-timeout, oauth) for a server of the file
            }
            if (byName.containsKey(name)) {
                throw new IllegalStateException(where + " is also a server of the mcpServers file " + file
                        + ": give one of them another name, or leave command and url out of " + where
                        + " to only set its request-timeout and oauth");
            }
            if (hasCommand && hasUrl) {
                throw new IllegalStateException(where + " has both a command and a url: set one");
            }
            byName.put(name, hasCommand ? stdio(name, server) : remote(where, name, server));
        });
        return new ArrayList<>(byName.values());
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
