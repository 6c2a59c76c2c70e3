package dev.loommcp.internal.session.era;

import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.session.base.CallContext;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP handshake of the legacy era (never used in the modern era, which has no handshake) (MCP 2025-11-25 "Lifecycle: initialization"): {@code initialize} with the
 * offered version and the client's capabilities, the check of the server's answer (version negotiation, required
 * fields), then {@code notifications/initialized} and the version handed to the transport. It sends the request
 * through the session's raw call, which it receives; it holds no state of its own.
 */
public final class Handshake {

    /** The protocol version this client offers in {@code initialize}. */
    public static final String LATEST_PROTOCOL_VERSION = "2025-11-25";

    /** The protocol versions this client accepts from a server, newest first. */
    public static final List<String> SUPPORTED_PROTOCOL_VERSIONS =
            List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    /** Sends one request of the handshake and returns its raw result. */
    @FunctionalInterface
    public interface RawCall {
        Object call(String method, Map<String, Object> params, RequestOptions options) throws InterruptedException;
    }

    private final McpTransport transport;
    private final Implementation clientInfo;
    private final ClientCapabilities capabilities;
    private final String offered;
    private final List<String> accepted;

    /**
     * @param pinned the one legacy version to offer and accept ({@code ProtocolMode.pinned}), or {@code null} for
     *               {@link #LATEST_PROTOCOL_VERSION} offered and every supported version accepted
     */
    public Handshake(McpTransport transport, Implementation clientInfo, ClientCapabilities capabilities,
                     String pinned) {
        this.transport = transport;
        this.clientInfo = clientInfo;
        this.capabilities = capabilities;
        this.offered = pinned == null ? LATEST_PROTOCOL_VERSION : pinned;
        this.accepted = pinned == null ? SUPPORTED_PROTOCOL_VERSIONS : List.of(pinned);
    }

    /** Sends {@code initialize} and returns the server's result once it passed the version and field checks. */
    public InitializeResult initialize(RawCall call, RequestOptions options) throws InterruptedException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", offered);
        params.put("capabilities", FastResults.plain(capabilities));
        params.put("clientInfo", FastResults.plain(clientInfo));
        Object raw = call.call("initialize", params, options);
        InitializeResult result = FastResults.initializeResult(raw, "initialize result");
        if (result.protocolVersion() == null || !accepted.contains(result.protocolVersion())) {
            throw new McpProtocolException("server " + transport.describe() + " answered initialize with protocol "
                    + "version " + (result.protocolVersion() == null ? "(none)" : "'" + result.protocolVersion() + "'")
                    + "; this client " + (accepted.size() == 1 ? "is pinned to " + accepted.get(0)
                    : "supports " + accepted));
        }
        if (result.capabilities() == null || result.serverInfo() == null) {
            throw new McpProtocolException("server " + transport.describe() + " answered initialize without "
                    + (result.capabilities() == null ? "capabilities" : "serverInfo"));
        }
        return result;
    }

    /**
     * Tells the transport the negotiated version (so that {@code notifications/initialized} carries it already),
     * then sends {@code notifications/initialized}.
     */
    public void confirm(InitializeResult result, Deadline deadline) throws InterruptedException {
        transport.handshakeCompleted(result.protocolVersion());
        transport.send(new JsonRpcMessage.Notification("notifications/initialized", null),
                new CallContext(deadline, null, true)); // delivered before the next request goes out
    }
}
