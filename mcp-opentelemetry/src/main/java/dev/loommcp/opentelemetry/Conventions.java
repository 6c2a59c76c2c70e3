package dev.loommcp.opentelemetry;

import dev.loommcp.intercept.McpConnection;
import dev.loommcp.spi.TransportInfo;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.List;

/**
 * The attribute keys and values of the OpenTelemetry semantic conventions for MCP (gen-ai {@code mcp} registry,
 * status Development) that this module records, and the connection attributes shared by spans and metrics.
 */
final class Conventions {

    static final AttributeKey<String> MCP_METHOD_NAME = AttributeKey.stringKey("mcp.method.name");
    static final AttributeKey<String> MCP_PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    static final AttributeKey<String> MCP_SESSION_ID = AttributeKey.stringKey("mcp.session.id");
    static final AttributeKey<String> MCP_RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
    static final AttributeKey<String> JSONRPC_REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    static final AttributeKey<String> RPC_RESPONSE_STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> GEN_AI_TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> GEN_AI_PROMPT_NAME = AttributeKey.stringKey("gen_ai.prompt.name");
    static final AttributeKey<String> GEN_AI_OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> GEN_AI_TOOL_CALL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> GEN_AI_TOOL_CALL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    static final String GEN_AI_PROMPT_VARIABLE_PREFIX = "gen_ai.prompt.variable.";
    static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
    static final AttributeKey<String> NETWORK_PROTOCOL_NAME = AttributeKey.stringKey("network.protocol.name");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");

    static final String EXECUTE_TOOL = "execute_tool";
    /** {@code error.type} of a {@code tools/call} result with {@code isError: true}. */
    static final String TOOL_ERROR = "tool_error";
    /** {@code error.type} of a request whose deadline passed ({@code McpTimeoutException}). */
    static final String TIMEOUT = "timeout";
    /** {@code error.type} of a request the caller gave up on (token, interrupt, scope ended). */
    static final String CANCELLED = "cancelled";

    /** The histograms' bucket advice of the conventions, in seconds. */
    static final List<Double> DURATION_BUCKETS = List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0,
            60.0, 120.0, 300.0);

    private Conventions() {
    }

    /**
     * Puts the connection's attributes: {@code mcp.protocol.version}, {@code network.transport} (and
     * {@code network.protocol.name=http} on HTTP transports), {@code server.address}, {@code server.port}.
     */
    static void putConnection(AttributesBuilder attributes, McpConnection connection) {
        connection.protocolVersion().ifPresent(v -> attributes.put(MCP_PROTOCOL_VERSION, v));
        TransportInfo transport = connection.transport();
        String networkTransport = switch (transport.kind()) {
            case PIPE -> "pipe";
            case TCP -> "tcp";
            case UNIX -> "unix";
            case OTHER -> null;
        };
        if (networkTransport != null) {
            attributes.put(NETWORK_TRANSPORT, networkTransport);
        }
        if (transport.kind() == TransportInfo.Kind.TCP || transport.kind() == TransportInfo.Kind.UNIX) {
            attributes.put(NETWORK_PROTOCOL_NAME, "http");
        }
        if (transport.address() != null) {
            attributes.put(SERVER_ADDRESS, transport.address());
        }
        if (transport.port() != null) {
            attributes.put(SERVER_PORT, transport.port().longValue());
        }
    }
}
