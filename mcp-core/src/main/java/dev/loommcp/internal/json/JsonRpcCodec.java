package dev.loommcp.internal.json;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.FrozenJsonObject;
import dev.loommcp.internal.json.plain.PlainJson;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

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
     * For input that {@link #decode(byte[], int, int)} refused: the id of the request it answers, when it is one JSON
     * object without {@code "method"} whose {@code "id"} is a string or an integer (so the failure can go to the
     * call that waits for it). Only for the failure path: it streams over the text again, reading the top-level
     * names only and skipping their values, without the read limits of the codec (a text refused for its nesting
     * depth or the length of a string still names its request; the text is bounded by the transport's message
     * limit).
     *
     * @param bytes  UTF-8 JSON
     * @param offset where it starts
     * @param length how many bytes
     * @return the id, or {@code null} when there is none to name (not JSON, a batch, a request, no usable id)
     */
    public static RequestId malformedResponseId(byte[] bytes, int offset, int length) {
        try (JsonParser p = JsonStreams.SCAN.createParser(JsonStreams.READ, bytes, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            RequestId id = null;
            for (String name = p.nextName(); name != null; name = p.nextName()) {
                JsonToken v = p.nextToken();
                if (name.equals("method")) {
                    return null; // a request or notification answers nothing
                }
                if (name.equals("id")) {
                    id = v == JsonToken.VALUE_STRING ? RequestId.of(p.getString())
                            : v == JsonToken.VALUE_NUMBER_INT ? Ids.exactId(p.getNumberValue()) : null;
                } else {
                    p.skipChildren();
                }
            }
            return id;
        } catch (RuntimeException e) { // JacksonException: a text that is not JSON names nothing
            return null;
        }
    }

    /**
     * Decodes one JSON text: a message or a batch. Request ids must be strings or integers that fit a {@code long}.
     * A response id that is a number but not such an integer ({@code 7.0}, {@code 1e3}, {@code 2^64+2}) is read
     * exactly and handed over as a {@link RequestId.StringId} holding the number's text (so it never equals an
     * integer id; the client matches it leniently, see {@link Ids#looseInteger}).
     *
     * @param bytes  UTF-8 JSON
     * @param offset where it starts
     * @param length how many bytes
     * @return the messages (one, or a batch's members in order)
     * @throws McpProtocolException when the text is not JSON or not JSON-RPC
     */
    public static List<JsonRpcMessage> decode(byte[] bytes, int offset, int length) {
        JsonRpcMessage.Response plain = PlainResponse.of(bytes, offset, length);
        if (plain != null) {
            return List.of(plain);
        }
        Object tree;
        try (JsonParser p = JsonStreams.FACTORY.createParser(JsonStreams.READ, bytes, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new McpProtocolException("not valid JSON: no content");
            }
            tree = readEnvelope(p, first, bytes, offset);
            if (p.nextToken() != null) {
                throw new McpProtocolException("not valid JSON: more content after the message at line "
                        + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr());
            }
        } catch (JacksonException e) {
            throw new McpProtocolException(Json.unreadable(e, ""));
        }
        return decodeTree(tree);
    }

    /**
     * Reads the top-level value: a message object, a batch of them, or anything else (refused later).
     *
     * @param bytes  the text the parser reads, for the repeated result {@code _meta}; {@code null}: decode everything
     * @param offset where the text starts in {@code bytes}
     */
    private static Object readEnvelope(JsonParser p, JsonToken t, byte[] bytes, int offset) {
        if (t == JsonToken.START_OBJECT) {
            return readMessageObject(p, bytes, offset);
        }
        if (t == JsonToken.START_ARRAY) {
            List<Object> batch = new ArrayList<>();
            for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                batch.add(e == JsonToken.START_OBJECT ? readMessageObject(p, bytes, offset) : readPlain(p, e));
            }
            return batch;
        }
        return readPlain(p, t);
    }

    /**
     * Reads one message object; a non-integer numeric {@code id} stays exact (a BigDecimal, never rounded). With
     * {@code bytes}, the {@code _meta} object of a {@code "result"} object that has exactly the text of the previous
     * one is not decoded again (see {@link RepeatedMeta}).
     */
    private static Map<String, Object> readMessageObject(JsonParser p, byte[] bytes, int offset) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String name = p.nextName(); name != null; name = p.nextName()) {
            JsonToken v = p.nextToken();
            if (v == JsonToken.START_OBJECT && bytes != null && name.equals("result")) {
                m.put(name, readResult(p, bytes, offset));
            } else {
                m.put(name, v == JsonToken.VALUE_NUMBER_FLOAT && name.equals("id") ? p.getDecimalValue()
                        : readPlain(p, v));
            }
        }
        return m;
    }

    /** Reads a result object (the parser is at its {@code START_OBJECT}), its {@code _meta} through the cache. */
    private static Map<String, Object> readResult(JsonParser p, byte[] bytes, int offset) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String name = p.nextName(); name != null; name = p.nextName()) {
            JsonToken v = p.nextToken();
            m.put(name, v == JsonToken.START_OBJECT && name.equals("_meta") ? RepeatedMeta.read(p, bytes, offset)
                    : readPlain(p, v));
        }
        return m;
    }

    /**
     * The {@code _meta} of the results the codec decoded last, kept with its text. A server sends the same result
     * {@code _meta} again and again (a modern server names itself in each: {@code io.modelcontextprotocol/serverInfo});
     * a {@code _meta} whose bytes are those of the previous one gets the previous decoded object, which is
     * unmodifiable, instead of a new tree: the transport's reader thread, which every response passes through, skips
     * building it, and the session's check of the server's identity finds the same object. The parser still reads
     * the bytes (skipping them), so malformed input fails as before. One entry for the whole JVM (clients of
     * different servers just replace it); thread-safe: the entry is immutable and published through a volatile field.
     */
    private static final class RepeatedMeta {
        /** Only small objects are kept: an identity, not a payload. */
        private static final int MAX_BYTES = 512;

        private record Entry(byte[] text, Map<String, Object> value) {
        }

        private static volatile Entry last;

        /** Reads the object at the parser's {@code START_OBJECT}: the previous one again, or decoded and kept. */
        static Map<String, Object> read(JsonParser p, byte[] bytes, int offset) {
            int from = offset + (int) p.currentTokenLocation().getByteOffset();
            Entry e = last;
            if (e != null && from + e.text.length <= bytes.length
                    && Arrays.equals(bytes, from, from + e.text.length, e.text, 0, e.text.length)) {
                // a JSON object ends with its closing brace: the same bytes are the same whole object
                p.skipChildren();
                return e.value;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> value = (Map<String, Object>) readPlain(p, JsonToken.START_OBJECT);
            int to = offset + (int) p.currentLocation().getByteOffset();
            if (to - from <= MAX_BYTES) {
                @SuppressWarnings("unchecked")
                Map<String, Object> frozen = (Map<String, Object>) frozen(value);
                last = new Entry(Arrays.copyOfRange(bytes, from, to), frozen);
                return frozen;
            }
            return value;
        }

        private static final byte[] META_MEMBER = ",\"_meta\":".getBytes(StandardCharsets.US_ASCII);

        /**
         * Decodes a result object kept as bytes whose last member is {@code "_meta"} with exactly the kept text (how
         * a modern server sends every result): only the members before it are parsed, and the kept object is put
         * back as {@code _meta}, so that its bytes are neither tokenized nor compared member by member again. The
         * text before it, closed with a brace, must parse as an object with at least one member: then the whole text
         * is valid JSON too (the kept text is a complete object, and the member before it ends where the comma
         * starts) and decodes to the same map. Anything else (no such tail, another {@code _meta}, text before it
         * that does not parse) returns {@code null}: the caller decodes the whole text as always, with its errors.
         *
         * @param json a whole result object's text, from its opening to its closing brace
         * @return the decoded object, or {@code null}
         */
        static Map<String, Object> decodeWithKeptTail(byte[] json) {
            Entry e = last;
            if (e == null) {
                return null;
            }
            int metaAt = json.length - 1 - e.text.length;
            int comma = metaAt - META_MEMBER.length;
            if (comma < 1 || json[json.length - 1] != '}'
                    || !Arrays.equals(json, metaAt, json.length - 1, e.text, 0, e.text.length)
                    || !Arrays.equals(json, comma, metaAt, META_MEMBER, 0, META_MEMBER.length)) {
                return null;
            }
            byte[] head = Arrays.copyOf(json, comma + 1);
            head[comma] = '}';
            Map<String, Object> result;
            try {
                result = decodeObject(head, head.length);
            } catch (McpProtocolException malformed) {
                return null; // the whole text is decoded again and refused with its own error
            }
            if (result.isEmpty()) {
                return null; // "{,"_meta":...}" is not JSON, though "{}" is
            }
            result.put("_meta", e.value);
            return result;
        }

        /** An unmodifiable deep copy of a plain JSON value. */
        private static Object frozen(Object v) {
            if (v instanceof Map<?, ?> m) {
                Map<String, Object> copy = new LinkedHashMap<>();
                m.forEach((k, x) -> copy.put((String) k, frozen(x)));
                return new FrozenJsonObject(copy);
            }
            if (v instanceof List<?> l) {
                List<Object> copy = new ArrayList<>(l.size());
                l.forEach(x -> copy.add(frozen(x)));
                return Collections.unmodifiableList(copy);
            }
            return v;
        }
    }

    /**
     * The fast path of the transport's reader thread, through which every message passes: a response of exactly the
     * form {@code {"jsonrpc":"2.0","id":<integer>,"result":{...}}} (what servers send for nearly every answer) is
     * recognized by a scan of its bytes that only matches brackets and strings, and its result object is kept as
     * bytes, a {@link LazyJsonObject}: the thread that takes the result parses it, strictly (see
     * {@link #plainResult(Object)}), so the single reader thread neither tokenizes nor builds it. Anything else
     * (another member order, whitespace, a string or negative id, a control character in a string, a nesting deeper
     * than {@link #MAX_SCAN_DEPTH}) goes the strict path of {@link #decode(byte[], int, int)}.
     */
    private static final class PlainResponse {
        private static final byte[] PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] RESULT = ",\"result\":".getBytes(StandardCharsets.US_ASCII);

        /** The response, or {@code null} when the text is not of that form. */
        static JsonRpcMessage.Response of(byte[] b, int offset, int length) {
            int end = offset + length;
            if (length < PREFIX.length + RESULT.length + 4
                    || !Arrays.equals(b, offset, offset + PREFIX.length, PREFIX, 0, PREFIX.length)) {
                return null;
            }
            int i = offset + PREFIX.length;
            int digits = i;
            long id = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                id = id * 10 + (b[i] - '0');
                i++;
            }
            int n = i - digits;
            if (n == 0 || n > 18 || (n > 1 && b[digits] == '0') || end - i < RESULT.length + 3
                    || !Arrays.equals(b, i, i + RESULT.length, RESULT, 0, RESULT.length)) {
                return null;
            }
            int from = i + RESULT.length;
            int to = objectEnd(b, from, end - 1);
            if (to != end - 1 || b[to] != '}') {
                return null; // not followed by exactly the envelope's closing brace
            }
            return new JsonRpcMessage.Response(RequestId.of(id), new LazyResult(Arrays.copyOfRange(b, from, to)));
        }

        /**
         * The index after the object that starts at {@code from}, matching brackets outside strings, or -1 (no
         * object there, not closed before {@code end}, a control character in a string, too deep).
         */
        private static int objectEnd(byte[] b, int from, int end) {
            if (from >= end || b[from] != '{') {
                return -1;
            }
            int depth = 0;
            for (int i = from; i < end; i++) {
                byte c = b[i];
                if (c == '"') {
                    // to the closing quote: plain runs eight bytes at a time, an escape skips the byte after it
                    for (i = JsonScan.stringStop(b, i + 1, end); i < end && b[i] != '"';
                         i = JsonScan.stringStop(b, i, end)) {
                        if (b[i] != '\\') {
                            return -1; // a control character
                        }
                        i += 2;
                    }
                    if (i >= end) {
                        return -1;
                    }
                } else if (c == '{' || c == '[') {
                    if (++depth > MAX_SCAN_DEPTH) {
                        return -1;
                    }
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return c == '}' ? i + 1 : -1;
                }
            }
            return -1;
        }
    }

    /** A result object kept as bytes by {@link PlainResponse}, decoded by {@link #decodeObject(byte[])}. */
    private static final class LazyResult extends LazyJsonObject {
        LazyResult(byte[] json) {
            super(json);
        }

        @Override
        Map<String, Object> decode(byte[] json) {
            return decodeObject(json);
        }
    }

    /** The deepest nesting the fast path of the reader thread scans; deeper text goes the strict path. */
    static final int MAX_SCAN_DEPTH = 256;

    /**
     * Decodes a result object kept as bytes by the reader thread's fast path (a {@link LazyJsonObject}), strictly
     * (as {@link #decode(byte[], int, int)} reads), its {@code _meta} through {@link RepeatedMeta}.
     *
     * @throws McpProtocolException when the text is not a valid JSON object
     */
    static Map<String, Object> decodeObject(byte[] json) {
        Map<String, Object> withKeptMeta = RepeatedMeta.decodeWithKeptTail(json);
        if (withKeptMeta != null) {
            return withKeptMeta;
        }
        return decodeObject(json, json.length);
    }

    /** Decodes the result object in {@code json[0, length)}, strictly. */
    private static Map<String, Object> decodeObject(byte[] json, int length) {
        try (JsonParser p = JsonStreams.FACTORY.createParser(JsonStreams.READ, json, 0, length)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new McpProtocolException("invalid JSON-RPC: the result is not an object");
            }
            Map<String, Object> result = readResult(p, json, 0);
            if (p.nextToken() != null) {
                throw new McpProtocolException("not valid JSON: the result has more content after it");
            }
            return result;
        } catch (JacksonException e) {
            throw new McpProtocolException(Json.unreadable(e, "the result "));
        }
    }

    /**
     * The plain value of a {@link JsonRpcMessage.Response#result()}: a result the reader thread kept as bytes is
     * decoded now, on the calling thread (the thread that takes the result); anything else is returned as it is.
     *
     * @param result a response's result
     * @return the result as plain JSON values (a {@code LinkedHashMap} for an object)
     * @throws McpProtocolException when a result kept as bytes is not valid JSON; the message names the problem and
     *                              where, never the payload
     */
    public static Object plainResult(Object result) {
        return result instanceof LazyJsonObject lazy ? lazy.decoded() : result;
    }

    /** Reads one JSON value into plain Java values (LinkedHashMap, ArrayList, String, Integer/Long/BigInteger, Double, Boolean, null). */
    private static Object readPlain(JsonParser p, JsonToken t) {
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                for (String name = p.nextName(); name != null; name = p.nextName()) {
                    m.put(name, readPlain(p, p.nextToken()));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    l.add(readPlain(p, e));
                }
                return l;
            }
            case VALUE_STRING -> {
                return p.getString();
            }
            case VALUE_NUMBER_INT -> {
                return switch (p.getNumberType()) {
                    case INT -> p.getIntValue();
                    case LONG -> p.getLongValue();
                    default -> p.getBigIntegerValue();
                };
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new McpProtocolException("not valid JSON: unexpected " + t + " at line "
                    + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr());
        }
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
            return new JsonRpcMessage.Response(readResponseId(m.get("id"), where, false), m.get("result"));
        }
        RequestId id = readResponseId(m.get("id"), where, true);
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

    /**
     * Reads the id of a response: like a request's, but a number that is not an exact {@code long} integer
     * ({@code 7.0}, {@code 1e3}, {@code 2^64+2}) is kept as a string id holding its text. It then never equals an
     * integer id; the client decides whether it stands for one of its requests ({@link Ids#looseInteger}).
     */
    private static RequestId readResponseId(Object id, String where, boolean nullable) {
        if (id instanceof BigDecimal || id instanceof BigInteger || id instanceof Double) {
            return RequestId.of(id instanceof BigDecimal d ? d.toString() : String.valueOf(id));
        }
        return readId(id, where, nullable);
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
        ExactBytes out = new ExactBytes();
        encode(message, out);
        return out.toByteArray();
    }

    /**
     * Collects what a generator writes into one array of the exact size. The generator buffers a message and writes
     * it in one piece when it closes (in several only beyond its buffer's size), so the usual message costs one
     * allocation of its own length: no growing buffer and no final copy, as a {@code ByteArrayOutputStream} would
     * need (a modern request, over 256 bytes with its {@code _meta}, cost three arrays).
     */
    private static final class ExactBytes extends OutputStream {
        private static final byte[] EMPTY = new byte[0];
        private byte[] bytes = EMPTY;
        private int count;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (count == 0 && bytes.length == 0) {
                bytes = Arrays.copyOfRange(b, off, off + len); // the usual case: the whole message at once
            } else {
                if (count + len > bytes.length) {
                    bytes = Arrays.copyOf(bytes, Math.max(count + len, bytes.length * 2));
                }
                System.arraycopy(b, off, bytes, count, len);
            }
            count += len;
        }

        byte[] toByteArray() {
            return count == bytes.length ? bytes : Arrays.copyOf(bytes, count);
        }
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
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the params of " + methodOf(message) + " cannot be written as JSON: "
                    + e.getMessage(), null);
        } catch (JacksonException e) {
            String method = methodOf(message);
            // a cycle, a nesting deeper than the write limit, a null map key, an object Jackson cannot write
            throw new IllegalArgumentException("the params of " + method + " cannot be written as JSON"
                    + Json.pathOf(e) + " (" + e.getClass().getSimpleName() + "); use plain JSON values: Map with "
                    + "String keys, List, String, Number, Boolean, null", null);
        }
    }

    /**
     * Writes a plain JSON value as compact JSON text with the streaming generator, so that it never builds the
     * data-binding mapper (which costs hundreds of milliseconds of a cold JVM: see {@link JsonStreams}). The SDK's own
     * records and enums inside the value go through data binding, as in a message; other objects are refused.
     *
     * @param value the value (plain JSON values: {@code Map} with {@code String} keys, {@code List}, {@code String},
     *              {@code Number}, {@code Boolean}, {@code null})
     * @return the JSON text
     * @throws IllegalArgumentException when the value cannot be written as JSON (a cycle, a nesting too deep, a
     *                                  {@code null} map key, a number that is not finite), naming where
     */
    public static String writeText(Object value) {
        java.io.StringWriter out = new java.io.StringWriter();
        try (JsonGenerator g = JsonStreams.FACTORY.createGenerator(JsonStreams.WRITE, out)) {
            PlainJsonWriter.write(g, value, 0);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the value cannot be written as JSON" + Json.pathOf(e) + " ("
                    + e.getClass().getSimpleName() + ")", null);
        }
        return out.toString();
    }

    private static String methodOf(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request r -> r.method();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> "the response to " + r.id();
            case JsonRpcMessage.ErrorResponse r -> "the error response to " + r.id();
        };
    }

    private static void write(JsonRpcMessage message, OutputStream out) {
        try (JsonGenerator g = JsonStreams.FACTORY.createGenerator(JsonStreams.WRITE, out)) {
            g.writeStartObject();
            g.writeStringProperty("jsonrpc", "2.0");
            switch (message) {
                case JsonRpcMessage.Request r -> {
                    writeId(g, r.id());
                    g.writeStringProperty("method", r.method());
                    if (r.params() != null) {
                        g.writeName("params");
                        PlainJsonWriter.write(g, r.params(), 0);
                    }
                }
                case JsonRpcMessage.Notification n -> {
                    g.writeStringProperty("method", n.method());
                    if (n.params() != null) {
                        g.writeName("params");
                        PlainJsonWriter.write(g, n.params(), 0);
                    }
                }
                case JsonRpcMessage.Response r -> {
                    writeId(g, r.id());
                    g.writeName("result");
                    PlainJsonWriter.write(g, r.result(), 0);
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
                        PlainJsonWriter.write(g, e.error().data(), 0);
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
