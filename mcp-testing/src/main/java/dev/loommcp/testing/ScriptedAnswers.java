package dev.loommcp.testing;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * How the fake server of a {@link ScriptedTransport} answers: the {@link ScriptedTransport.Responder} of each method,
 * the defaults ({@code initialize} from the scripted protocol version, capabilities and server info; {@code ping}
 * with {@code {}}), and the answer a responder's return value makes on the wire. Thread-safe: the responders are in
 * a concurrent map and the scripted values are volatile; a responder runs on the thread that asks for the answer.
 */
final class ScriptedAnswers {

    private final Map<String, ScriptedTransport.Responder> responders = new ConcurrentHashMap<>();
    private volatile @Nullable String protocolVersion = ScriptedTransport.DEFAULT_PROTOCOL_VERSION;
    private volatile @Nullable Map<String, @Nullable Object> serverCapabilities =
            Map.of("tools", Map.of("listChanged", true));
    private volatile @Nullable Map<String, @Nullable Object> serverInfo =
            Map.of("name", "scripted-server", "version", "1.0.0");

    ScriptedAnswers() {
        on("initialize", r -> initializeResult());
        on("ping", r -> Map.of());
    }

    void on(String method, ScriptedTransport.Responder responder) {
        responders.put(Objects.requireNonNull(method, "method"), Objects.requireNonNull(responder, "responder"));
    }

    void protocolVersion(@Nullable String version) {
        this.protocolVersion = version;
    }

    void serverCapabilities(@Nullable Map<String, @Nullable Object> capabilities) {
        this.serverCapabilities = capabilities;
    }

    void serverInfo(@Nullable Map<String, @Nullable Object> info) {
        this.serverInfo = info;
    }

    /** The default {@code initialize} result: a new mutable map. */
    Map<String, @Nullable Object> initializeResult() {
        Map<String, @Nullable Object> r = new LinkedHashMap<>();
        if (protocolVersion != null) {
            r.put("protocolVersion", protocolVersion);
        }
        if (serverCapabilities != null) {
            r.put("capabilities", serverCapabilities);
        }
        if (serverInfo != null) {
            r.put("serverInfo", serverInfo);
        }
        return r;
    }

    /**
     * The fake server's answer to {@code request}, in wire form, on this thread: the responder's result, error or
     * message; {@code -32601} for a method without a responder, {@code -32603} for a responder that threw.
     *
     * @return the answer, or {@code null} when the responder said {@link ScriptedTransport#HOLD}
     * @throws IllegalArgumentException if the responder returned something that is no answer
     */
    @Nullable JsonRpcMessage answer(JsonRpcMessage.Request request) {
        Object answer = respond(request);
        return answer == ScriptedTransport.HOLD ? null : toMessage(request.id(), answer);
    }

    private @Nullable Object respond(JsonRpcMessage.Request request) {
        ScriptedTransport.Responder r = responders.get(request.method());
        if (r == null) {
            return new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method(), null);
        }
        try {
            return r.answer(request);
        } catch (Exception e) {
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "scripted responder failed: " + e, null);
        }
    }

    @SuppressWarnings("unchecked")
    private static JsonRpcMessage toMessage(RequestId id, @Nullable Object answer) {
        Object a = answer == null ? Map.of() : answer;
        JsonRpcMessage m = switch (a) {
            case JsonRpcMessage msg -> msg;
            case JsonRpcError error -> new JsonRpcMessage.ErrorResponse(id, error);
            case Map<?, ?> result -> new JsonRpcMessage.Response(id, result);
            default -> throw new IllegalArgumentException("a responder returned " + a.getClass());
        };
        return ScriptedTransport.wire(m);
    }

    /** Whether {@code m} is a response or error response to {@code id}. */
    static boolean answers(JsonRpcMessage m, RequestId id) {
        return (m instanceof JsonRpcMessage.Response r && r.id().equals(id))
                || (m instanceof JsonRpcMessage.ErrorResponse e && id.equals(e.id()));
    }
}
