package dev.loommcp.spi;

import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns {@link JsonRpcMessage}s into bytes and back, the way the core reads and writes JSON-RPC 2.0 (MCP "Base
 * protocol"). A transport gets one through {@link TransportContext#framing()} and uses it for every message, so
 * that every transport reads exactly as strictly as the others. Implemented by the core; stateless and thread-safe.
 */
public interface JsonRpcFraming {

    /**
     * Encodes one message as compact UTF-8 JSON, without a trailing newline (a line-delimited transport adds it).
     *
     * @param message the message
     * @return the bytes
     * @throws IllegalArgumentException when the params or result hold something that is not plain JSON (a cycle, a
     *                                  nesting too deep, a {@code null} map key, an arbitrary object)
     */
    byte[] encode(JsonRpcMessage message);

    /**
     * Writes one message as compact UTF-8 JSON, without a trailing newline; the stream is neither flushed nor closed.
     *
     * @param message the message
     * @param out     the stream
     * @throws IllegalArgumentException as {@link #encode(JsonRpcMessage)}
     * @throws java.io.UncheckedIOException if the stream fails
     */
    void encode(JsonRpcMessage message, OutputStream out);

    /**
     * Decodes one JSON text of UTF-8 bytes: a message, or a batch (a JSON array, 2025-03-26) whose members are
     * returned in order. Strict: ids must be strings or integers that fit a {@code long} (a response id such as
     * {@code 7.0} is kept as a string id holding its text); anything that is not a valid request, notification,
     * response or error response fails.
     *
     * @param bytes  UTF-8 JSON
     * @param offset where the text starts
     * @param length how many bytes it has
     * @return the messages, never empty
     * @throws dev.loommcp.McpProtocolException when the text is not JSON or not JSON-RPC; the message says what is
     *                                           wrong and never quotes the payload
     */
    List<JsonRpcMessage> decode(byte[] bytes, int offset, int length);

    /**
     * Decodes one JSON text; see {@link #decode(byte[], int, int)}.
     *
     * @param text the JSON text
     * @return the messages, never empty
     * @throws dev.loommcp.McpProtocolException when the text is not JSON or not JSON-RPC
     */
    default List<JsonRpcMessage> decode(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return decode(b, 0, b.length);
    }

    /**
     * For input that {@link #decode(byte[], int, int)} refused: the id of the request it answers, so that the
     * transport can report it with {@link TransportSink#onMalformedResponse} (the call that waits for it then fails
     * at once, not at its deadline). There is one when the input is a single JSON object without {@code "method"}
     * whose {@code "id"} is a string or an integer. Only for the failure path: it parses the input again. The default
     * implementation is the core's.
     *
     * @param bytes  UTF-8 JSON
     * @param offset where the text starts
     * @param length how many bytes it has
     * @return the id, or {@code null} when there is none to name (not JSON, a batch, a request, no usable id); never
     *         throws for malformed input
     */
    default @Nullable RequestId malformedResponseId(byte[] bytes, int offset, int length) {
        return JsonRpcCodec.malformedResponseId(bytes, offset, length);
    }

    /**
     * Returns the core's framing (the one {@link TransportContext#framing()} gives a transport).
     *
     * @return the framing
     */
    static JsonRpcFraming standard() {
        return CoreFraming.INSTANCE;
    }
}

/** The core's framing: {@link JsonRpcCodec}. */
enum CoreFraming implements JsonRpcFraming {
    INSTANCE;

    @Override
    public byte[] encode(JsonRpcMessage message) {
        return JsonRpcCodec.encode(message);
    }

    @Override
    public void encode(JsonRpcMessage message, OutputStream out) {
        JsonRpcCodec.encode(message, out);
    }

    @Override
    public List<JsonRpcMessage> decode(byte[] bytes, int offset, int length) {
        return JsonRpcCodec.decode(bytes, offset, length);
    }

    @Override
    public List<JsonRpcMessage> decode(String text) {
        return JsonRpcCodec.decode(text);
    }
}
