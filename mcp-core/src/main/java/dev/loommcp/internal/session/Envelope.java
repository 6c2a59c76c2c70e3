package dev.loommcp.internal.session;

import dev.loommcp.internal.json.EncodedMap;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.era.Discovery;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.spi.RequestRouting;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The per-request protocol fields of the modern era (MCP 2026-07-28 "Per-request protocol fields"): the
 * {@code _meta} envelope every request carries ({@code protocolVersion}, exactly the client capabilities the client
 * can serve, {@code clientInfo}), and the {@link RequestRouting} a transport with headers sends as
 * {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} and {@code Mcp-Param-*}. Immutable apart from
 * the tool catalog it reads; thread-safe.
 */
final class Envelope implements Discovery.Wrapping {

    /** {@code _meta} key of the request's protocol version. */
    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    /** {@code _meta} key of the request's client capabilities. */
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    /** {@code _meta} key of the client's identity. */
    static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

    private final EncodedMap capabilities;
    private final EncodedMap clientInfo;
    private final ToolCatalog tools;
    private final boolean parameterHeaders;

    /**
     * @param config           the client's configuration (handlers decide the capabilities)
     * @param tools            the catalog that knows each tool's {@code x-mcp-header} annotations
     * @param parameterHeaders whether {@code tools/call} routing carries parameter headers (an HTTP-like transport)
     */
    Envelope(SessionConfig config, ToolCatalog tools, boolean parameterHeaders) {
        this.capabilities = EncodedMap.of(capabilities(config));
        this.clientInfo = EncodedMap.of(FastResults.plain(config.clientInfo()));
        this.tools = tools;
        this.parameterHeaders = parameterHeaders;
    }

    /**
     * The capabilities the client declares on each modern request: exactly what it can serve. {@code elicitation}
     * (form, and URL when declared) with an elicitation handler, {@code sampling} with a sampling handler,
     * {@code roots} with a roots handler, {@code extensions["io.modelcontextprotocol/tasks"]} with a task driver
     * (MODERN-ERA.md C.5.1: on every request of such a client); nothing else.
     */
    static Map<String, Object> capabilities(SessionConfig config) {
        Map<String, Object> caps = new LinkedHashMap<>();
        if (config.elicitationHandler() != null) {
            Map<String, Object> elicitation = new LinkedHashMap<>();
            elicitation.put("form", Map.of());
            if (config.elicitationUrlMode()) {
                elicitation.put("url", Map.of());
            }
            caps.put("elicitation", Collections.unmodifiableMap(elicitation));
        }
        if (config.samplingHandler() != null) {
            caps.put("sampling", Map.of());
        }
        if (config.rootsHandler() != null) {
            caps.put("roots", Map.of());
        }
        if (config.taskSupport() != null) {
            caps.put("extensions", Map.of(dev.loommcp.spi.TaskChannel.EXTENSION, Map.of()));
        }
        return Collections.unmodifiableMap(caps);
    }

    /** Whether every request declares the tasks extension (a task driver is installed). */
    boolean declaresTasks() {
        return capabilities.get("extensions") != null;
    }

    /** The capabilities this client declares on each request. */
    Map<String, Object> capabilities() {
        return capabilities;
    }

    /**
     * Returns {@code params} with a {@code _meta} that holds the caller's keys plus the three protocol fields (which a
     * caller's key of the same name never replaces). Without a caller {@code _meta} key (the usual case) that is a
     * read-only view of {@code params} followed by the envelope ({@link ParamsWithMeta}), else a copy.
     *
     * @param params  the request's params, or {@code null}
     * @param version the protocol version of the request
     * @return the params to send
     */
    @SuppressWarnings("unchecked")
    @Override
    public Map<String, Object> wrap(Map<String, Object> params, String version) {
        if (params == null || !params.containsKey("_meta")) {
            return new ParamsWithMeta(params == null ? Collections.emptyMap() : params, plainMeta(version));
        }
        Map<String, Object> copy = new LinkedHashMap<>(params);
        if (copy.get("_meta") instanceof Map<?, ?> callers && !callers.isEmpty()) {
            Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) callers);
            meta.put(PROTOCOL_VERSION, version);
            meta.put(CLIENT_CAPABILITIES, capabilities);
            meta.put(CLIENT_INFO, clientInfo);
            copy.put("_meta", meta);
        } else {
            copy.put("_meta", plainMeta(version)); // the usual case: the same envelope every time, encoded once
        }
        return copy;
    }

    /** The envelope of a request without caller {@code _meta}, for the last version asked (versions rarely change). */
    private volatile EncodedMap plainMeta;

    private EncodedMap plainMeta(String version) {
        EncodedMap m = plainMeta;
        if (m == null || !version.equals(m.get(PROTOCOL_VERSION))) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put(PROTOCOL_VERSION, version);
            meta.put(CLIENT_CAPABILITIES, capabilities);
            meta.put(CLIENT_INFO, clientInfo);
            m = EncodedMap.of(meta);
            plainMeta = m;
        }
        return m;
    }

    /**
     * Computes the routing of a request: the name servers route on ({@code params.name} of {@code tools/call} and
     * {@code prompts/get}, {@code params.uri} of {@code resources/read}, {@code params.taskId} of
     * {@code tasks/get|update|cancel}) and, on a transport with one exchange per request, the {@code tools/call}
     * parameter headers from the tool's {@code x-mcp-header} annotations.
     *
     * @param method  the method
     * @param params  the params as the caller gave them, or {@code null}
     * @param version the protocol version of the request
     * @return the routing
     */
    @SuppressWarnings("unchecked")
    @Override
    public RequestRouting routing(String method, Map<String, Object> params, String version) {
        String key = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        String name = key != null && params != null && params.get(key) instanceof String s ? s : null;
        Map<String, String> headers = Map.of();
        if (parameterHeaders && method.equals("tools/call") && name != null) {
            Object args = params.get("arguments");
            headers = tools.parameterHeaders(name, args instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
        }
        return new RequestRouting(version, method, name, headers);
    }

    /** Routing of a notification (no name, no parameter headers). */
    static RequestRouting notificationRouting(String method, String version) {
        return new RequestRouting(version, method, null, Map.of());
    }
}
