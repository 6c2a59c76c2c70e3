package dev.loommcp.spi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The routing facts of one modern-era message (MCP 2026-07-28 "Streamable HTTP: protocol version header, standard
 * request headers, custom headers from tool parameters"), computed by the core so that a transport whose medium has
 * headers needs no protocol knowledge: the HTTP transport sends them as {@code MCP-Protocol-Version},
 * {@code Mcp-Method}, {@code Mcp-Name} and {@code Mcp-Param-<name>}, encoding values that are not plain header-safe
 * ASCII as {@code =?base64?...?=}. Present on {@link SendContext#routing()} only for messages of the modern era
 * (including the era probe); its absence means the legacy era.
 *
 * <p>Immutable.
 *
 * @param protocolVersion  the protocol version, equal to the message's {@code _meta} one
 * @param method           the JSON-RPC method of the message
 * @param name             the name a server routes on ({@code params.name} of {@code tools/call} and
 *                         {@code prompts/get}, {@code params.uri} of {@code resources/read}, {@code params.taskId} of
 *                         {@code tasks/get|update|cancel}), raw and unencoded; or {@code null}
 * @param parameterHeaders the tool arguments a tool's {@code x-mcp-header} annotations designate, by header name
 *                         suffix (for {@code Mcp-Param-<suffix>}), as raw unencoded values (integers in decimal,
 *                         booleans {@code true}/{@code false}); never {@code null}
 */
public record RequestRouting(String protocolVersion, String method, @Nullable String name,
                             Map<String, String> parameterHeaders) {

    /**
     * Creates the record; the map is copied in order.
     *
     * @throws NullPointerException if {@code protocolVersion}, {@code method} or {@code parameterHeaders} is
     *                              {@code null}
     */
    public RequestRouting {
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(method, "method");
        parameterHeaders = Objects.requireNonNull(parameterHeaders, "parameterHeaders").isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameterHeaders));
    }
}
