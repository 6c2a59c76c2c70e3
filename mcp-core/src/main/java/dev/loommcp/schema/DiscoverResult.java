package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code server/discover}, the modern era's way to learn a server (MCP 2026-07-28 "server/discover";
 * schema {@code DiscoverResult}). In the modern era it plays the part {@link InitializeResult} plays in the legacy
 * one; nothing of it is a session.
 *
 * @param supportedVersions the modern protocol versions the server speaks (a server that also serves legacy clients
 *                          still lists only its modern versions)
 * @param capabilities      what the server supports
 * @param instructions      how to use the server, a hint for the model; or {@code null}
 * @param serverInfo        the server's name and version, from {@code _meta["io.modelcontextprotocol/serverInfo"]}
 *                          (preferred) or a top-level {@code serverInfo}; or {@code null} when the server sent neither
 * @param ttlMs             how long, in milliseconds, the result may be reused (missing or negative: 0)
 * @param cacheScope        {@code "public"} or {@code "private"} (per authorization context), or {@code null}
 * @param meta              the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DiscoverResult(@Nullable List<String> supportedVersions, @Nullable ServerCapabilities capabilities,
                             @Nullable String instructions, @Nullable Implementation serverInfo, long ttlMs,
                             @Nullable String cacheScope,
                             @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; lists and maps are copied, a negative {@code ttlMs} becomes 0. */
    public DiscoverResult {
        supportedVersions = Copies.list(supportedVersions);
        meta = Copies.map(meta);
        ttlMs = Math.max(0, ttlMs);
    }
}
