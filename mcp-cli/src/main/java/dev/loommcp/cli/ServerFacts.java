package dev.loommcp.cli;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.ServerCapabilities;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the commands read from a connected server in either protocol era: its capabilities, the request that
 * declared them, the protocol version, and whole lists fetched with raw requests (for {@code --json}).
 */
final class ServerFacts {

    private ServerFacts() {
    }

    /**
     * The server's capabilities in either era: from {@code server/discover} in the modern era, from
     * {@code initialize} in the legacy one.
     */
    static ServerCapabilities capabilities(McpClient client) {
        DiscoverResult discovered = client.discoverResult().orElse(null);
        if (discovered != null) {
            return discovered.capabilities() != null ? discovered.capabilities() : ServerCapabilities.of();
        }
        return client.initializeResult().orElseThrow().capabilities();
    }

    /** The request that told the server's capabilities: {@code server/discover} or {@code initialize}. */
    static String handshakeName(McpClient client) {
        return client.discoverResult().isPresent() ? "server/discover" : "initialize";
    }

    /** The protocol version of the connection; in the modern era the client's modern version when not reported. */
    static String protocolVersion(McpClient client) {
        String version = client.protocolVersion().orElse(null);
        if (version == null && client.discoverResult().isPresent()) {
            return ProtocolMode.MODERN_PROTOCOL_VERSION;
        }
        return version;
    }

    /**
     * Reads every page of a list method with raw requests and joins the pages: the first page's object with the
     * items of every page under {@code itemsKey} and no {@code nextCursor}. A repeated cursor or more than 1000 pages
     * fails like the client's own listings.
     */
    static Map<String, Object> listRaw(McpClient client, String method, String itemsKey)
            throws InterruptedException {
        Map<String, Object> first = null;
        List<Object> items = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String cursor = null;
        for (int page = 1; ; page++) {
            if (page > 1000) {
                throw new McpProtocolException(method + ": more than 1000 pages; stopped");
            }
            Map<String, Object> result = client.request(method, cursor == null ? null : Map.of("cursor", cursor),
                    RequestOptions.DEFAULT);
            if (first == null) {
                first = new LinkedHashMap<>(result);
            }
            if (result.get(itemsKey) instanceof List<?> list) {
                items.addAll(list);
            }
            if (!(result.get("nextCursor") instanceof String next)) {
                break;
            }
            if (!seen.add(next)) {
                throw new McpProtocolException(method + ": the server repeated a cursor; stopped");
            }
            cursor = next;
        }
        first.put(itemsKey, items);
        first.remove("nextCursor");
        return first;
    }
}
