package dev.loommcp.internal.json;

import dev.loommcp.McpProtocolException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;

/**
 * Reads and writes JSON-RPC 2.0 messages (MCP "Base protocol"). Reading is strict: anything that is not a valid
 * request, notification, response or error response fails with an {@link McpProtocolException} that says what is
 * wrong, never quoting the payload. An array (a 2025-03-26 batch) is accepted on input and yields its members.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonRpcCodec {

    private JsonRpcCodec() {
    }

    /**
     * Decodes one JSON text: a message or a batch.
     *
     * @param bytes  UTF-8 JSON
     * @param offset where it starts
     * @param length how many bytes
     * @return the messages (one, or a batch's members in order)
     * @throws McpProtocolException when the text is not JSON or not JSON-RPC
     */
    public static List<JsonRpcMessage> decode(byte[] bytes, int offset, int length) {
        Object tree;
        try {
            tree = Json.MAPPER.readValue(bytes, offset, length, Object.class);
        } catch (JacksonException e) {
            throw new McpProtocolException("not valid JSON " + Json.parseProblem(e));
        }
        return decodeTree(tree);
    }

    /**
     * Decodes one JSON text: a message or a batch.
     *
     * @param text the JSON text
     * @return the messages
     * @throws McpProtocolException when the text is not JSON or not JSON-RPC
     */
    public static List<JsonRpcMessage> decode(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return decode(b, 0, b.length);
    }

    /**
     * Decodes a plain JSON value already parsed: a message object or a batch array.
     *
     * @param tree the value
     * @return the messages
     * @throws McpProtocolException when it is not JSON-RPC
     */
    public static List<JsonRpcMessage> decodeTree(Object tree) {
        if (tree instanceof Map<?, ?> m) {
            return List.of(decodeObject(m, -1));
        }
        if (tree instanceof List<?> batch) {
            if (batch.isEmpty()) {
                throw new McpProtocolException("invalid JSON-RPC: empty batch");
            }
            List<JsonRpcMessage> out = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                if (!(batch.get(i) instanceof Map<?, ?> m)) {
                    throw new McpProtocolException("invalid JSON-RPC: batch member " + i + " is not an object");
                }
                out.add(decodeObject(m, i));
            }
            return out;
        }
        throw new McpProtocolException("invalid JSON-RPC: message is " + kind(tree) + ", not an object");
    }

    @SuppressWarnings("unchecked")
    private static JsonRpcMessage decodeObject(Map<?, ?> m, int batchIndex) {
        String where = batchIndex < 0 ? "" : " (batch member " + batchIndex + ")";
        Object version = m.get("jsonrpc");
        if (!"2.0".equals(version)) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": \"jsonrpc\" must be \"2.0\", got "
                    + kind(version));
        }
        Object method = m.get("method");
        boolean hasId = m.containsKey("id");
        if (method != null) {
            if (!(method instanceof String name)) {
                throw new McpProtocolException("invalid JSON-RPC" + where + ": \"method\" is " + kind(method));
            }
            Object params = m.get("params");
            if (params != null && !(params instanceof Map)) {
                throw new McpProtocolException("invalid JSON-RPC" + where + ": params of " + name + " is "
                        + kind(params) + ", not an object");
            }
            if (m.containsKey("result") || m.containsKey("error")) {
                throw new McpProtocolException("invalid JSON-RPC" + where + ": " + name
                        + " has both \"method\" and \"result\"/\"error\"");
            }
            if (!hasId) {
                return new JsonRpcMessage.Notification(name, (Map<String, Object>) params);
            }
            return new JsonRpcMessage.Request(readId(m.get("id"), where, false), name, (Map<String, Object>) params);
        }
        boolean hasResult = m.containsKey("result");
        boolean hasError = m.containsKey("error");
        if (hasResult == hasError) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": a message without \"method\" must have "
                    + "exactly one of \"result\" and \"error\"");
        }
        if (hasResult) {
            if (!hasId) {
                throw new McpProtocolException("invalid JSON-RPC" + where + ": response without \"id\"");
            }
            return new JsonRpcMessage.Response(readId(m.get("id"), where, false), m.get("result"));
        }
        RequestId id = readId(m.get("id"), where, true);
        if (!(m.get("error") instanceof Map<?, ?> e)) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": \"error\" is " + kind(m.get("error"))
                    + ", not an object");
        }
        Object code = e.get("code");
        if (!(code instanceof Integer || code instanceof Long || code instanceof BigInteger)) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": error \"code\" is " + kind(code)
                    + ", not an integer");
        }
        if (!(code instanceof Integer)) {
            long v = code instanceof Long l ? l : 0;
            if (code instanceof BigInteger || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new McpProtocolException("invalid JSON-RPC" + where + ": error \"code\" is out of the 32-bit "
                        + "integer range");
            }
        }
        Object message = e.get("message");
        if (!(message instanceof String msg)) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": error \"message\" is " + kind(message)
                    + ", not a string");
        }
        return new JsonRpcMessage.ErrorResponse(id, new JsonRpcError(((Number) code).intValue(), msg, e.get("data")));
    }

    private static RequestId readId(Object id, String where, boolean nullable) {
        if (id instanceof String s) {
            return RequestId.of(s);
        }
        if (id instanceof Integer || id instanceof Long) {
            return RequestId.of(((Number) id).longValue());
        }
        if (id == null && nullable) {
            return null;
        }
        if (id instanceof BigInteger) {
            throw new McpProtocolException("invalid JSON-RPC" + where + ": \"id\" is an integer too large");
        }
        throw new McpProtocolException("invalid JSON-RPC" + where + ": \"id\" is " + kind(id)
                + ", must be a string or an integer");
    }

    /**
     * Names the JSON kind of a plain value, for error messages that must not quote payloads.
     *
     * @param v the value
     * @return "null", "a string", "a number", "a boolean", "an array" or "an object"
     */
    public static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
            return "an integer";
        }
        if (v instanceof Double || v instanceof Float || v instanceof BigDecimal || v instanceof Number) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        if (v instanceof List) {
            return "an array";
        }
        if (v instanceof Map) {
            return "an object";
        }
        return v.getClass().getSimpleName();
    }

    /**
     * Encodes one message as compact UTF-8 JSON without a trailing newline.
     *
     * @param message the message
     * @return the bytes
     */
    public static byte[] encode(JsonRpcMessage message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        encode(message, out);
        return out.toByteArray();
    }

    /**
     * Writes one message as compact UTF-8 JSON without a trailing newline. The stream is not flushed or closed.
     *
     * @param message the message
     * @param out     the stream
     * @throws IllegalArgumentException when the params or result hold something that is not plain JSON (a cycle, a
     *                                  nesting too deep, a {@code null} map key, an arbitrary object)
     */
    public static void encode(JsonRpcMessage message, OutputStream out) {
        try {
            write(message, out);
        } catch (JacksonException e) {
            String method = switch (message) {
                case JsonRpcMessage.Request r -> r.method();
                case JsonRpcMessage.Notification n -> n.method();
                case JsonRpcMessage.Response r -> "the response to " + r.id();
                case JsonRpcMessage.ErrorResponse r -> "the error response to " + r.id();
            };
            // a cycle, a nesting deeper than the write limit, a null map key, an object Jackson cannot write
            throw new IllegalArgumentException("the params of " + method + " cannot be written as JSON"
                    + Json.pathOf(e) + " (" + e.getClass().getSimpleName() + "); use plain JSON values: Map with "
                    + "String keys, List, String, Number, Boolean, null", null);
        }
    }

    private static void write(JsonRpcMessage message, OutputStream out) {
        try (JsonGenerator g = Json.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringProperty("jsonrpc", "2.0");
            switch (message) {
                case JsonRpcMessage.Request r -> {
                    writeId(g, r.id());
                    g.writeStringProperty("method", r.method());
                    if (r.params() != null) {
                        g.writeName("params");
                        g.writePOJO(r.params());
                    }
                }
                case JsonRpcMessage.Notification n -> {
                    g.writeStringProperty("method", n.method());
                    if (n.params() != null) {
                        g.writeName("params");
                        g.writePOJO(n.params());
                    }
                }
                case JsonRpcMessage.Response r -> {
                    writeId(g, r.id());
                    g.writeName("result");
                    g.writePOJO(r.result());
                }
                case JsonRpcMessage.ErrorResponse e -> {
                    if (e.id() == null) {
                        g.writeNullProperty("id");
                    } else {
                        writeId(g, e.id());
                    }
                    g.writeName("error");
                    g.writeStartObject();
                    g.writeNumberProperty("code", e.error().code());
                    g.writeStringProperty("message", e.error().message());
                    if (e.error().data() != null) {
                        g.writeName("data");
                        g.writePOJO(e.error().data());
                    }
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
        }
    }

    private static void writeId(JsonGenerator g, RequestId id) {
        g.writeName("id");
        switch (id) {
            case RequestId.StringId s -> g.writeString(s.value());
            case RequestId.NumberId n -> g.writeNumber(n.number());
        }
    }
}
