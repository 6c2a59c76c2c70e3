package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.FrozenJsonObject;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link JsonRpcCodec}: the four kinds both ways, ids, batches, and a precise error for every malformed input. */
class JsonRpcCodecTest {

    static List<Object> nonFinite() {
        return List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Float.POSITIVE_INFINITY,
                Float.NaN);
    }


    /** A value no error message may contain: it stands for payload content that could be a secret. */
    private static final String SECRET = "s3cr3tPayloadValue";

    private static JsonRpcMessage decodeOne(String json) {
        List<JsonRpcMessage> messages = JsonRpcCodec.decode(json);
        assertThat(messages).hasSize(1);
        return messages.get(0);
    }

    private static String encode(JsonRpcMessage m) {
        return new String(JsonRpcCodec.encode(m), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> readObject(String json) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) Json.read(json);
        return m;
    }

    @Nested
    class Decoding {

        @Test
        void requestWithIntegerIdAndParams() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"echo\",\"arguments\":{\"n\":1}}}");
            assertThat(m).isInstanceOf(JsonRpcMessage.Request.class);
            JsonRpcMessage.Request r = (JsonRpcMessage.Request) m;
            assertThat(r.id()).isEqualTo(RequestId.of(7));
            assertThat(r.method()).isEqualTo("tools/call");
            assertThat(r.params()).containsEntry("name", "echo").containsEntry("arguments", Map.of("n", 1));
        }

        @Test
        void requestWithStringIdAndNoParams() {
            JsonRpcMessage.Request r = (JsonRpcMessage.Request) decodeOne(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"abc-1\",\"method\":\"ping\"}");
            assertThat(r.id()).isEqualTo(RequestId.of("abc-1"));
            assertThat(r.params()).isNull();
        }

        @Test
        void stringAndIntegerIdsStayDistinct() {
            RequestId s = ((JsonRpcMessage.Request) decodeOne("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"a\"}"))
                    .id();
            RequestId n = ((JsonRpcMessage.Request) decodeOne("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}")).id();
            assertThat(s).isInstanceOf(RequestId.StringId.class);
            assertThat(n).isInstanceOf(RequestId.NumberId.class);
            assertThat(s).isNotEqualTo(n);
            assertThat(s.value()).isEqualTo("1");
            assertThat(n.value()).isEqualTo(1L);
        }

        @Test
        void largeIntegerIdFitsInLong() {
            JsonRpcMessage.Request r = (JsonRpcMessage.Request) decodeOne(
                    "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"a\"}");
            assertThat(r.id()).isEqualTo(RequestId.of(9007199254740993L));
        }

        @Test
        void notification() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                    + "\"params\":{\"progressToken\":3,\"progress\":0.5}}");
            assertThat(m).isEqualTo(new JsonRpcMessage.Notification("notifications/progress",
                    Map.of("progressToken", 3, "progress", 0.5)));
        }

        @Test
        void notificationWithoutParams() {
            assertThat(decodeOne("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                    .isEqualTo(new JsonRpcMessage.Notification("notifications/initialized", null));
        }

        @Test
        void response() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]}}");
            assertThat(m).isEqualTo(new JsonRpcMessage.Response(RequestId.of(3), Map.of("tools", List.of())));
        }

        @Test
        void aResponseIdThatIsANumberButNotALongIsKeptExactlyAsText() {
            assertThat(responseId("7.0")).isEqualTo(RequestId.of("7.0"));
            assertThat(responseId("7.0000000000000001")).isEqualTo(RequestId.of("7.0000000000000001"));
            assertThat(responseId("18446744073709551618")).isEqualTo(RequestId.of("18446744073709551618"));
            assertThat(responseId("7")).isEqualTo(RequestId.of(7));
            JsonRpcMessage error = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":2.5,\"error\":{\"code\":1,\"message\":\"m\"}}");
            assertThat(((JsonRpcMessage.ErrorResponse) error).id()).isEqualTo(RequestId.of("2.5"));
            List<JsonRpcMessage> batch = JsonRpcCodec.decode("[{\"jsonrpc\":\"2.0\",\"id\":3.0,\"result\":{}}]");
            assertThat(((JsonRpcMessage.Response) batch.get(0)).id()).isEqualTo(RequestId.of("3.0"));
        }

        private RequestId responseId(String idJson) {
            return ((JsonRpcMessage.Response) decodeOne("{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"result\":{}}"))
                    .id();
        }

        @Test
        void responseWithNullResultIsKept() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":null}");
            assertThat(m).isEqualTo(new JsonRpcMessage.Response(RequestId.of("x"), null));
        }

        @Test
        void errorResponseWithData() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32602,"
                    + "\"message\":\"bad params\",\"data\":{\"field\":\"x\"}}}");
            assertThat(m).isEqualTo(new JsonRpcMessage.ErrorResponse(RequestId.of(4),
                    new JsonRpcError(-32602, "bad params", Map.of("field", "x"))));
        }

        @Test
        void errorResponseWithNullId() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                    + "\"message\":\"Parse error\"}}");
            assertThat(m).isEqualTo(new JsonRpcMessage.ErrorResponse(null, JsonRpcError.of(-32700, "Parse error")));
        }

        @Test
        void errorResponseWithoutId() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid\"}}");
            assertThat(m).isEqualTo(new JsonRpcMessage.ErrorResponse(null, JsonRpcError.of(-32600, "Invalid")));
        }

        @Test
        void unknownMembersAreIgnored() {
            JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"x-extra\":true}");
            assertThat(m).isEqualTo(new JsonRpcMessage.Response(RequestId.of(1), Map.of()));
        }

        @Test
        void batchYieldsItsMembersInOrder() {
            List<JsonRpcMessage> batch = JsonRpcCodec.decode("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\"}},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1,\"message\":\"m\"}}]");
            assertThat(batch).containsExactly(
                    new JsonRpcMessage.Response(RequestId.of(1), Map.of()),
                    new JsonRpcMessage.Notification("notifications/message", Map.of("level", "info")),
                    new JsonRpcMessage.Request(RequestId.of("s"), "ping", null),
                    new JsonRpcMessage.ErrorResponse(RequestId.of(2), JsonRpcError.of(1, "m")));
        }

        @Test
        void decodesASliceOfABuffer() {
            byte[] whole = "xx{\"jsonrpc\":\"2.0\",\"method\":\"a\"}yy".getBytes(StandardCharsets.UTF_8);
            List<JsonRpcMessage> m = JsonRpcCodec.decode(whole, 2, whole.length - 4);
            assertThat(m).containsExactly(new JsonRpcMessage.Notification("a", null));
        }

        @Test
        void decodeTreeAcceptsPlainValues() {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("jsonrpc", "2.0");
            tree.put("id", 5L);
            tree.put("result", Map.of());
            assertThat(JsonRpcCodec.decodeTree(tree))
                    .containsExactly(new JsonRpcMessage.Response(RequestId.of(5), Map.of()));
        }

        @Test
        void unicodeSurvives() {
            JsonRpcMessage.Notification n = (JsonRpcMessage.Notification) decodeOne(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"t\":\"gr\u00fc\u00df \\u00e9 \ud83d\ude00\"}}");
            assertThat(n.params()).containsEntry("t", "gr\u00fc\u00df \u00e9 \ud83d\ude00");
        }
    }

    /**
     * A result's {@code _meta} with the same text as the previous one is not decoded again: the previous (unmodifiable)
     * object comes back. Everything else is decoded as always.
     */
    @Nested
    class RepeatedResultMeta {

        private static final String META = "{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\u00e9\",\"version\":\"1\"},"
                + "\"n\":[1,2.5,null,{\"x\":true}]}";

        @SuppressWarnings("unchecked")
        private static Map<String, Object> resultMeta(String json) {
            Object result = ((JsonRpcMessage.Response) decodeOne(json)).result();
            return (Map<String, Object>) ((Map<String, Object>) result).get("_meta");
        }

        private static String response(int id, String meta) {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[],\"_meta\":" + meta
                    + ",\"resultType\":\"complete\"}}";
        }

        @Test
        void theSameMetaTextGivesTheSameUnmodifiableObject() {
            Map<String, Object> first = resultMeta(response(1, META));
            Map<String, Object> second = resultMeta(response(2, META));
            assertThat(first).isEqualTo(Json.read(META));
            assertThat(second).isSameAs(first);
            assertThatThrownBy(() -> first.put("k", 1)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ((Map<?, ?>) first.get("io.modelcontextprotocol/serverInfo"))
                    .clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> ((List<?>) first.get("n")).clear())
                    .isInstanceOf(UnsupportedOperationException.class);
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) JsonRpcCodec.plainResult(((JsonRpcMessage.Response)
                    decodeOne(response(3, META))).result());
            assertThat(result).isInstanceOf(LinkedHashMap.class).containsEntry("resultType", "complete");
            assertThat(result.keySet()).containsExactly("content", "_meta", "resultType");
        }

        @Test
        void anotherMetaTextIsDecodedAndReplacesTheKeptOne() {
            Map<String, Object> first = resultMeta(response(1, META));
            String other = META.replace("\"1\"", "\"2\"");
            Map<String, Object> second = resultMeta(response(2, other));
            assertThat(second).isNotSameAs(first).isEqualTo(Json.read(other));
            assertThat(resultMeta(response(3, other))).isSameAs(second);
            // a shorter text whose bytes begin like the kept one is read on its own
            assertThat(resultMeta(response(4, "{}"))).isEqualTo(Map.of());
            assertThat(resultMeta(response(5, other.substring(0, other.length() - 1) + ",\"y\":1}")))
                    .containsEntry("y", 1);
        }

        private static String lastMetaResponse(int id, String before, String meta) {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{" + before + ",\"_meta\":" + meta + "}}";
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> taken(String line) {
            return (Map<String, Object>) JsonRpcCodec.plainResult(((JsonRpcMessage.Response) decodeOne(line)).result());
        }

        /**
         * A result whose last member is the kept {@code _meta} (how a modern server sends every result): only the
         * members before it are parsed, and the result is the same map a whole parse gives, members in order, with
         * the kept object as {@code _meta}.
         */
        @Test
        @SuppressWarnings("unchecked")
        void aResultEndingInTheKeptMetaDecodesToWhatAWholeParseGives() {
            String before = "\"content\":[{\"type\":\"text\",\"text\":\"a,\\\"_meta\\\":{}}\"}],\"resultType\":\"complete\"";
            Map<String, Object> kept = (Map<String, Object>) taken(lastMetaResponse(1, before, META)).get("_meta");
            assertThat(kept).isInstanceOf(FrozenJsonObject.class).isEqualTo(Json.read(META));
            // last: a result with a second _meta member before the kept one (the later member wins, as ever)
            for (String b : List.of(before, "\"a\":1 ", "\"a\":{\"_meta\":" + META + "}", "\"_meta\":{\"x\":1},\"a\":[]")) {
                String line = lastMetaResponse(2, b, META);
                Map<String, Object> result = taken(line);
                Map<String, Object> whole = (Map<String, Object>) Json.read("{" + b + ",\"_meta\":" + META + "}");
                assertThat(result).as(line).isInstanceOf(LinkedHashMap.class).isEqualTo(whole);
                assertThat(result.keySet()).as(line).containsExactlyElementsOf(whole.keySet());
                assertThat(result.get("_meta")).as(line).isSameAs(kept);
            }
        }

        /**
         * The text before a kept {@code _meta} tail is read as strictly as ever: when it does not make a valid
         * object, the whole result is refused as before, never quoting the payload.
         */
        @Test
        void textBeforeAKeptMetaTailIsStillReadStrictly() {
            taken(lastMetaResponse(1, "\"a\":1", META));
            for (String before : List.of("", " ", "\"a\":", "\"a\":1,", "\"a\":\"x", "\"a\":[1", "\"a\":{\"b\":1",
                    "\"a\":1 \"b\":2", "\"a\":" + SECRET, "\"a\":\"" + SECRET + "\u0001\"")) {
                String line = lastMetaResponse(2, before, META);
                assertThatThrownBy(() -> taken(line)).as(line)
                        .isInstanceOf(McpProtocolException.class)
                        .hasMessageStartingWith("not valid JSON")
                        .message().doesNotContain(SECRET);
            }
        }

        @Test
        void theKeptMetaIsFoundInASliceOfABuffer() {
            Map<String, Object> kept = resultMeta(response(1, META));
            String line = response(2, META);
            byte[] whole = ("\u00e9x" + line + "\n" + line).getBytes(StandardCharsets.UTF_8);
            int off = "\u00e9x".getBytes(StandardCharsets.UTF_8).length;
            JsonRpcMessage m = JsonRpcCodec.decode(whole, off, line.getBytes(StandardCharsets.UTF_8).length).get(0);
            assertThat(((Map<?, ?>) ((JsonRpcMessage.Response) m).result()).get("_meta")).isSameAs(kept);
        }

        @Test
        void onlyAResultMetaIsKept() {
            resultMeta(response(1, META));
            JsonRpcMessage.Request r = (JsonRpcMessage.Request) decodeOne(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"_meta\":" + META + "}}");
            assertThat(r.params().get("_meta")).isInstanceOf(LinkedHashMap.class).isEqualTo(Json.read(META));
            String big = "{\"k\":\"" + "z".repeat(600) + "\"}";
            Map<String, Object> large = resultMeta(response(2, big));
            assertThat(large).isInstanceOf(LinkedHashMap.class);
            assertThat(resultMeta(response(3, big))).isNotSameAs(large).isEqualTo(large);
        }

        @Test
        void malformedInputAfterAKeptMetaIsStillRefused() {
            resultMeta(response(1, META));
            for (String bad : List.of(response(2, META).replace("\"resultType\"", "\"resultType\" 1"),
                    response(2, META).substring(0, response(2, META).length() - 2),
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"_meta\":" + META.substring(0, 20))) {
                assertThatThrownBy(() -> JsonRpcCodec.plainResult(((JsonRpcMessage.Response) decodeOne(bad)).result()))
                        .as(bad)
                        .isInstanceOf(McpProtocolException.class)
                        .hasMessageStartingWith("not valid JSON");
            }
        }

        /**
         * Malformed JSON inside a result is refused: when the line is read (the strict path, or the fast path's scan
         * fails) or when the result is taken (the fast path kept it as bytes). Never quoting the payload.
         */
        @Test
        void malformedJsonInsideAResultIsRefused() {
            String deep = "{\"a\":".repeat(1500) + "1" + "}".repeat(1500);
            for (String bad : List.of("{\"a\":NaN}", "{\"a\":[1,}", "{\"a\" 1}", "{\"a\":tru" + SECRET + "}",
                    "{\"_meta\":{\"a\":NaN}}", "{\"_meta\":{\"a\":" + SECRET + "}}", "{\"a\":\"x}", "{\"a\":1]}",
                    "{\"a\":[1}]}", "{\"a\":\"\u0001\"}", "{\"a\":1,}", "{\"_meta\":" + deep + "}")) {
                for (String line : List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + bad + "}",
                        "{\"jsonrpc\": \"2.0\",\"id\":1,\"result\":" + bad + "}")) {
                    assertThatThrownBy(() -> JsonRpcCodec.plainResult(((JsonRpcMessage.Response) decodeOne(line))
                            .result()))
                            .as(line)
                            .isInstanceOf(McpProtocolException.class)
                            // valid JSON nested too deep names the parser's limit (break test 40, finding 2)
                            .hasMessageStartingWith(bad.endsWith("}}}") ? "JSON over a read limit of the parser"
                                    : "not valid JSON")
                            .message().doesNotContain(SECRET);
                }
            }
        }
    }

    /**
     * The reader thread's fast path: a response of exactly the form {@code {"jsonrpc":"2.0","id":N,"result":{...}}}
     * keeps its result as bytes ({@link LazyJsonObject}); the thread that takes it decodes it, to the same values as
     * the strict path. Any other form goes the strict path.
     */
    @Nested
    class PlainResponses {

        private static final List<String> RESULTS = List.of("{}", "{\"content\":[]}",
                "{\"content\":[{\"type\":\"text\",\"text\":\"a \\\"}]\\\" b \\\\\"}],\"x\":{\"y\":[[],{}]}}",
                "{\"s\":\"gr\u00fc\u00df \\u00e9 \ud83d\ude00 }]{[\",\"n\":[1,-2,3.5e3,12345678901234567890,true,false,null]}",
                "{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\",\"version\":\"1\"}},\"resultType\":"
                        + "\"complete\"}", "{ \"spaced\" : [ 1 , 2 ] }");

        @Test
        void aPlainResponseKeepsItsResultAsBytesAndDecodesToTheSameValues() {
            for (String result : RESULTS) {
                for (long id : new long[] {0, 7, 123456789012345678L}) {
                    JsonRpcMessage.Response r = (JsonRpcMessage.Response) decodeOne("{\"jsonrpc\":\"2.0\",\"id\":" + id
                            + ",\"result\":" + result + "}");
                    assertThat(r.id()).isEqualTo(RequestId.of(id));
                    assertThat(r.result()).as(result).isInstanceOf(LazyJsonObject.class);
                    Object plain = JsonRpcCodec.plainResult(r.result());
                    assertThat(plain).as(result).isInstanceOf(LinkedHashMap.class).isEqualTo(Json.read(result));
                    assertThat(JsonRpcCodec.plainResult(r.result())).as("decoded once").isSameAs(plain);
                    assertThat(r.result()).isEqualTo(Json.read(result)).hasSameHashCodeAs(Json.read(result));
                    assertThat(r).isEqualTo(new JsonRpcMessage.Response(RequestId.of(id), Json.read(result)));
                }
            }
        }

        @Test
        void aPlainResponseInASliceOfABufferIsCutAtItsOwnBytes() {
            String line = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":" + RESULTS.get(3) + "}";
            byte[] whole = ("\u00e9x" + line + "\n{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}").getBytes(StandardCharsets.UTF_8);
            int off = "\u00e9x".getBytes(StandardCharsets.UTF_8).length;
            JsonRpcMessage.Response r = (JsonRpcMessage.Response) JsonRpcCodec.decode(whole, off,
                    line.getBytes(StandardCharsets.UTF_8).length).get(0);
            assertThat(r.result()).isInstanceOf(LazyJsonObject.class);
            assertThat(JsonRpcCodec.plainResult(r.result())).isEqualTo(Json.read(RESULTS.get(3)));
        }

        /**
         * The scan skips plain runs of a string eight bytes at a time: escapes, multi-byte characters, brackets inside
         * strings and the closing quote are found at every offset from those steps, and the result decodes as the
         * strict path reads it; a control character at any offset sends the line to the strict path, which refuses it.
         */
        @Test
        void stringsAreScannedAlikeAtEveryOffsetAndAControlCharacterAnywhereIsRefused() {
            for (int k = 0; k <= 17; k++) {
                String pad = "x".repeat(k);
                String result = "{\"" + pad + "\":\"" + pad + "a\\\"}]\\\\\",\"s\":\"" + pad
                        + "gr\u00fc\u00df \ud83d\ude00 \\u00e9 }]{[\\\"\",\"" + pad + "_meta\":{\"" + pad + "\":[\"\\\\\"]}}";
                JsonRpcMessage.Response r = (JsonRpcMessage.Response) decodeOne("{\"jsonrpc\":\"2.0\",\"id\":" + k
                        + ",\"result\":" + result + "}");
                assertThat(r.result()).as(result).isInstanceOf(LazyJsonObject.class);
                assertThat(JsonRpcCodec.plainResult(r.result())).as(result).isEqualTo(Json.read(result));
                for (String control : List.of("\u0001", "\n", "\u001f")) {
                    String line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"" + pad + control + "b\"}}";
                    assertThatThrownBy(() -> JsonRpcCodec.decode(line)).as(line)
                            .isInstanceOf(McpProtocolException.class).hasMessageStartingWith("not valid JSON");
                }
            }
        }

        @Test
        void anyOtherFormGoesTheStrictPath() {
            for (String line : List.of("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{} }", "{\"jsonrpc\":\"2.0\", \"id\":1,\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":-1,\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1234567890123456789,\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"x\":1}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[1]}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"result\":{}}")) {
                JsonRpcMessage m = decodeOne(line);
                Object result = ((JsonRpcMessage.Response) m).result();
                assertThat(result).as(line).isNotInstanceOf(LazyJsonObject.class);
                assertThat(m).isEqualTo(JsonRpcCodec.decodeTree(Json.read(line)).get(0));
            }
            for (String bad : List.of("{\"jsonrpc\":\"2.0\",\"id\":01,\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"}\"}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":")) {
                assertThatThrownBy(() -> JsonRpcCodec.decode(bad)).as(bad).isInstanceOf(McpProtocolException.class)
                        .hasMessageStartingWith("not valid JSON");
            }
        }
    }

    @Nested
    class Encoding {

        /** JSON has no NaN or infinity: such a number is refused, never written as the string "Infinity". */
        @ParameterizedTest
        @MethodSource("dev.loommcp.internal.json.JsonRpcCodecTest#nonFinite")
        void aNumberJsonCannotHoldIsRefused(Object number) {
            assertThatThrownBy(() -> encode(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                    Map.of("arguments", Map.of("a", number)))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a number JSON cannot hold");
        }

        @Test
        void anEncodedMapIsWrittenAsItsJsonAndReadsLikeAMap() {
            EncodedMap meta = EncodedMap.of(Map.of("k", List.of(1, "two")));
            assertThat(meta).isEqualTo(Map.of("k", List.of(1, "two")));
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.Request(RequestId.of(3), "tools/list",
                    Map.of("_meta", meta))));
            assertThat(m.get("params")).isEqualTo(Map.of("_meta", Map.of("k", List.of(1, "two"))));
        }

        /** The streaming text writer (what an encoded map caches) writes what data binding writes, and refuses alike. */
        @Test
        void plainTextIsWhatDataBindingWritesAndBadValuesAreNamed() {
            Map<String, Object> value = new java.util.LinkedHashMap<>();
            value.put("s", "a\"b\\c \u00e9\n");
            value.put("n", List.of(1, 2L, 2.5, new java.math.BigDecimal("1e400"), true));
            value.put("null", null);
            value.put("nested", Map.of("k", List.of()));
            value.put("record", dev.loommcp.schema.Implementation.of("n", "1"));
            assertThat(JsonRpcCodec.writeText(value)).isEqualTo(Json.write(value));
            assertThatThrownBy(() -> JsonRpcCodec.writeText(Map.of("x", Double.NaN)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a number JSON cannot hold");
            Map<String, Object> cycle = new java.util.HashMap<>();
            cycle.put("self", cycle);
            assertThatThrownBy(() -> EncodedMap.of(cycle)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nesting deeper than");
            // a message says the same (the generator's own limit lies above the codec's)
            assertThatThrownBy(() -> encode(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", cycle)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("the params of tools/call cannot be written as JSON: nesting deeper than");
        }

        /** The cached text is written as its UTF-8 bytes: characters beyond ASCII survive it. */
        @Test
        void anEncodedMapWithTextBeyondAsciiIsWrittenAsUtf8() {
            Map<String, Object> info = Map.of("name", "gr\u00fc\u00df-\u00e9t\u00e9 \ud83d\ude00", "q", "a\"b\\c");
            EncodedMap meta = EncodedMap.of(info);
            byte[] bytes = JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(3), "tools/list",
                    Map.of("_meta", meta)));
            assertThat(readObject(new String(bytes, StandardCharsets.UTF_8)).get("params"))
                    .isEqualTo(Map.of("_meta", info));
            java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
            JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(3), "tools/list", Map.of("_meta", meta)), stream);
            assertThat(stream.toByteArray()).isEqualTo(bytes);
        }

        /**
         * A message larger than the generator's buffer reaches the output in several writes: the array
         * {@link JsonRpcCodec#encode(JsonRpcMessage)} returns still holds all of it, exactly.
         */
        @Test
        void aMessageLargerThanTheGeneratorBufferIsEncodedWhole() {
            List<Object> many = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                many.add(i % 3 == 0 ? "x\u00e9" + i : i);
            }
            JsonRpcMessage m = new JsonRpcMessage.Request(RequestId.of(9), "tools/call",
                    Map.of("name", "big", "arguments", Map.of("s", "y".repeat(70_000), "l", many)));
            byte[] bytes = JsonRpcCodec.encode(m);
            java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
            JsonRpcCodec.encode(m, stream);
            assertThat(bytes).isEqualTo(stream.toByteArray());
            assertThat(JsonRpcCodec.decode(bytes, 0, bytes.length)).containsExactly(m);
            byte[] small = JsonRpcCodec.encode(new JsonRpcMessage.Notification("a", null));
            assertThat(new String(small, StandardCharsets.UTF_8)).isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}");
        }

        @Test
        void typedTextKeepsItsNumbersExactly() {
            Object value = Json.readExact("{\"big\":1e999,\"d\":0.1000000000000000055511151231257827,\"i\":12345678901234567890123}");
            String json = encode(new JsonRpcMessage.Request(RequestId.of(2), "tools/call", Map.of("arguments", value)));
            assertThat(json).contains("\"big\":1E+999").contains("\"d\":0.1000000000000000055511151231257827")
                    .contains("\"i\":12345678901234567890123").doesNotContain("Infinity");
        }

        @Test
        void typedTextThatRepeatsANameIsRefusedNamingIt() {
            assertThatThrownBy(() -> Json.readExact("{\"text\":\"a\",\"n\":{\"x\":1,\"x\":2}}"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON")
                    .hasMessageContaining("\"x\"");
            assertThat(Json.readExact("{\"x\":1,\"n\":{\"x\":2}}")).as("the same name in two objects")
                    .isEqualTo(Map.of("x", 1, "n", Map.of("x", 2)));
        }

        @Test
        void requestWithIntegerId() {
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.Request(RequestId.of(12), "tools/list",
                    Map.of("cursor", "c"))));
            assertThat(m).containsExactlyInAnyOrderEntriesOf(Map.of("jsonrpc", "2.0", "id", 12, "method", "tools/list",
                    "params", Map.of("cursor", "c")));
        }

        @Test
        void requestWithStringIdAndNoParamsOmitsParams() {
            String json = encode(new JsonRpcMessage.Request(RequestId.of("r-1"), "ping", null));
            assertThat(readObject(json)).containsExactlyInAnyOrderEntriesOf(
                    Map.of("jsonrpc", "2.0", "id", "r-1", "method", "ping"));
        }

        @Test
        void notificationHasNoId() {
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.Notification("notifications/initialized",
                    null)));
            assertThat(m).containsExactlyInAnyOrderEntriesOf(Map.of("jsonrpc", "2.0",
                    "method", "notifications/initialized"));
        }

        @Test
        void responseAlwaysHasResult() {
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.Response(RequestId.of("a"), null)));
            assertThat(m).containsEntry("id", "a").containsKey("result");
            assertThat(m.get("result")).isNull();
        }

        @Test
        void errorResponse() {
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.ErrorResponse(RequestId.of(9),
                    new JsonRpcError(-32601, "Method not found", List.of(1, "two")))));
            assertThat(m).containsExactlyInAnyOrderEntriesOf(Map.of("jsonrpc", "2.0", "id", 9, "error",
                    Map.of("code", -32601, "message", "Method not found", "data", List.of(1, "two"))));
        }

        @Test
        void errorResponseWithoutIdWritesNullId() {
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.ErrorResponse(null,
                    JsonRpcError.of(-32700, "Parse error"))));
            assertThat(m).containsKey("id");
            assertThat(m.get("id")).isNull();
            assertThat(m.get("error")).isEqualTo(Map.of("code", -32700, "message", "Parse error"));
        }

        @Test
        void compactSingleLineEvenWithNewlinesInStrings() {
            String json = encode(new JsonRpcMessage.Notification("m", Map.of("text", "line1\nline2\r\n\u2028end")));
            assertThat(json).doesNotContain("\n").doesNotContain("\r").doesNotEndWith(" ");
            assertThat(((JsonRpcMessage.Notification) decodeOne(json)).params())
                    .containsEntry("text", "line1\nline2\r\n\u2028end");
        }

        @Test
        void encodesIntoAStreamWithoutClosingIt() {
            var out = new java.io.ByteArrayOutputStream() {
                boolean closed;

                @Override
                public void close() {
                    closed = true;
                }
            };
            JsonRpcCodec.encode(new JsonRpcMessage.Notification("a", null), out);
            JsonRpcCodec.encode(new JsonRpcMessage.Notification("b", null), out);
            assertThat(out.closed).isFalse();
            assertThat(out.toString(StandardCharsets.UTF_8))
                    .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}{\"jsonrpc\":\"2.0\",\"method\":\"b\"}");
        }

        @Test
        void writesRecordsInParams() {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("clientInfo", dev.loommcp.schema.Implementation.of("n", "1"));
            Map<String, Object> m = readObject(encode(new JsonRpcMessage.Request(RequestId.of(1), "initialize",
                    params)));
            assertThat(m.get("params")).isEqualTo(Map.of("clientInfo", Map.of("name", "n", "version", "1")));
        }

        static List<JsonRpcMessage> samples() {
            return List.of(
                    new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                            Map.of("name", "x", "arguments", Map.of("a", List.of(1, 2), "b", true))),
                    new JsonRpcMessage.Request(RequestId.of("id-\u00e9"), "ping", null),
                    new JsonRpcMessage.Notification("notifications/cancelled", Map.of("requestId", 1,
                            "reason", "timeout")),
                    new JsonRpcMessage.Response(RequestId.of(Long.MAX_VALUE), Map.of("x", "y")),
                    new JsonRpcMessage.Response(RequestId.of(""), Map.of()),
                    new JsonRpcMessage.ErrorResponse(RequestId.of(-1), new JsonRpcError(-32603, "internal",
                            Map.of("k", "v"))),
                    new JsonRpcMessage.ErrorResponse(null, JsonRpcError.of(-32700, "parse")));
        }

        @ParameterizedTest
        @MethodSource("samples")
        void roundTrips(JsonRpcMessage m) {
            assertThat(decodeOne(encode(m))).isEqualTo(m);
        }
    }

    @Nested
    class Malformed {

        static List<Arguments> cases() {
            return List.of(
                    Arguments.of("not JSON", "{\"jsonrpc\":", "not valid JSON"),
                    Arguments.of("a string, not an object", "\"" + SECRET + "\"", "message is a string, not an object"),
                    Arguments.of("a number", "42", "message is an integer, not an object"),
                    Arguments.of("null", "null", "message is null, not an object"),
                    Arguments.of("missing jsonrpc", "{\"id\":1,\"method\":\"" + "a" + "\"}",
                            "\"jsonrpc\" must be \"2.0\""),
                    Arguments.of("wrong jsonrpc", "{\"jsonrpc\":\"1." + SECRET + "\",\"id\":1,\"method\":\"a\"}",
                            "\"jsonrpc\" must be \"2.0\", got a string"),
                    Arguments.of("numeric jsonrpc", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"a\"}",
                            "\"jsonrpc\" must be \"2.0\", got a number"),
                    Arguments.of("method not a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":17}",
                            "\"method\" is an integer"),
                    Arguments.of("method an object", "{\"jsonrpc\":\"2.0\",\"method\":{\"x\":\"" + SECRET + "\"}}",
                            "\"method\" is an object"),
                    Arguments.of("params an array", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"params\":[\""
                            + SECRET + "\"]}", "params of a is an array, not an object"),
                    Arguments.of("params a string", "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":\"" + SECRET
                            + "\"}", "params of a is a string, not an object"),
                    Arguments.of("method and result", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"result\":{}}",
                            "has both \"method\" and \"result\"/\"error\""),
                    Arguments.of("both result and error", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},"
                            + "\"error\":{\"code\":1,\"message\":\"m\"}}", "exactly one of \"result\" and \"error\""),
                    Arguments.of("neither result nor error", "{\"jsonrpc\":\"2.0\",\"id\":1}",
                            "exactly one of \"result\" and \"error\""),
                    Arguments.of("response without id", "{\"jsonrpc\":\"2.0\",\"result\":{}}",
                            "response without \"id\""),
                    Arguments.of("response with null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}",
                            "\"id\" is null, must be a string or an integer"),
                    Arguments.of("request with null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"a\"}",
                            "\"id\" is null, must be a string or an integer"),
                    Arguments.of("fractional id", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}",
                            "\"id\" is a number, must be a string or an integer"),
                    Arguments.of("boolean id", "{\"jsonrpc\":\"2.0\",\"id\":true,\"result\":{}}",
                            "\"id\" is a boolean, must be a string or an integer"),
                    Arguments.of("object id", "{\"jsonrpc\":\"2.0\",\"id\":{\"k\":\"" + SECRET + "\"},\"method\":\"a\"}",
                            "\"id\" is an object, must be a string or an integer"),
                    Arguments.of("array id", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"result\":{}}",
                            "\"id\" is an array, must be a string or an integer"),
                    Arguments.of("too large id", "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,"
                            + "\"method\":\"a\"}", "\"id\" is an integer too large"),
                    Arguments.of("error id boolean", "{\"jsonrpc\":\"2.0\",\"id\":false,\"error\":{\"code\":1,"
                            + "\"message\":\"m\"}}", "\"id\" is a boolean"),
                    Arguments.of("error not an object", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"" + SECRET + "\"}",
                            "\"error\" is a string, not an object"),
                    Arguments.of("error without code", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"message\":\"m\"}}",
                            "error \"code\" is null, not an integer"),
                    Arguments.of("error with string code", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\""
                            + SECRET + "\",\"message\":\"m\"}}", "error \"code\" is a string, not an integer"),
                    Arguments.of("error with fractional code", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,"
                            + "\"message\":\"m\"}}", "error \"code\" is a number, not an integer"),
                    Arguments.of("error without message", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}",
                            "error \"message\" is null, not a string"),
                    Arguments.of("error with numeric message", "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,"
                            + "\"message\":5}}", "error \"message\" is an integer, not a string"),
                    Arguments.of("empty batch", "[]", "empty batch"),
                    Arguments.of("batch member not an object", "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},\"" + SECRET
                            + "\"]", "batch member 1 is not an object"),
                    Arguments.of("invalid batch member", "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},"
                            + "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"b\"}]", "(batch member 1)"));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void isRejectedWithAPreciseMessage(String name, String json, String expected) {
            assertThatThrownBy(() -> JsonRpcCodec.decode(json))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageContaining(expected)
                    .message().doesNotContain(SECRET);
        }

        @Test
        void invalidBatchMemberNamesTheMemberAndTheProblem() {
            assertThatThrownBy(() -> JsonRpcCodec.decode("[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"b\"}]"))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessage("invalid JSON-RPC (batch member 1): \"id\" is a boolean, must be a string or an integer");
        }

        @Test
        void decodeTreeRejectsNonContainers() {
            assertThatThrownBy(() -> JsonRpcCodec.decodeTree(true))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessage("invalid JSON-RPC: message is a boolean, not an object");
        }

        @Test
        void notJsonNamesWhereItBroke() {
            assertThatThrownBy(() -> JsonRpcCodec.decode("{\"a\" 1}"))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageStartingWith("not valid JSON at line 1, column ");
            assertThatThrownBy(() -> JsonRpcCodec.decode("{\n\"a\":\n" + SECRET + "}"))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageStartingWith("not valid JSON at line 3, column ")
                    .message().doesNotContain(SECRET);
        }

        /** Break test 40, finding 2: valid JSON over a read limit of the parser says which limit. */
        @Test
        void validJsonOverAReadLimitNamesTheLimit() {
            String deep = "[".repeat(600) + "]".repeat(600);
            String json = "{\"jsonrpc\":\"2.0\",\"result\":{\"a\":" + deep + ",\"s\":\"" + SECRET + "\"},\"id\":7}";
            assertThatThrownBy(() -> JsonRpcCodec.decode(json)).isInstanceOf(McpProtocolException.class)
                    .hasMessageStartingWith("JSON over a read limit of the parser")
                    .hasMessageContaining("nesting depth (501) exceeds the maximum allowed (500")
                    .message().doesNotContain(SECRET);
            String digits = "9".repeat(1200);
            // the strict path (the id last), and the fast path that keeps the result as bytes until it is taken
            assertThatThrownBy(() -> JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"result\":{\"n\":" + digits
                    + "},\"id\":8}")).isInstanceOf(McpProtocolException.class)
                    .hasMessageContaining("read limit").hasMessageContaining("Number value length (1200)")
                    .message().doesNotContain("99999999");
            assertThatThrownBy(() -> JsonRpcCodec.plainResult(((JsonRpcMessage.Response) decodeOne(
                    "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"n\":" + digits + "}}")).result()))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageStartingWith("JSON over a read limit of the parser: the result")
                    .hasMessageContaining("Number value length (1200)")
                    .message().doesNotContain("99999999");
        }

        /**
         * A text refused for a read limit still names the request it answers (so that the call fails at once), and a
         * request or a batch names none; the scan reads past the nesting to an id at the end.
         */
        @Test
        void aMalformedResponseOverAReadLimitStillNamesItsId() {
            String deep = "[".repeat(5000) + "]".repeat(5000);
            assertThat(responseId("{\"jsonrpc\":\"2.0\",\"result\":{\"a\":" + deep + "},\"id\":7}"))
                    .isEqualTo(RequestId.of(7));
            assertThat(responseId("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{\"n\":" + "9".repeat(1200)
                    + "}}")).isEqualTo(RequestId.of("s-1"));
            assertThat(responseId("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\",\"params\":{\"a\":" + deep
                    + "}}")).isNull();
            assertThat(responseId("[{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + deep + "}]")).isNull();
            assertThat(responseId("{\"jsonrpc\":\"2.0\",\"id\":7.5,\"result\":" + deep + "}")).isNull();
            assertThat(responseId("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + deep)).isNull(); // cut short
        }

        private static RequestId responseId(String json) {
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            return JsonRpcCodec.malformedResponseId(b, 0, b.length);
        }

        @Test
        void notJsonNeverQuotesThePayload() {
            for (String garbage : List.of(SECRET, SECRET + " trailing", "{\"k\": " + SECRET + "}",
                    "[" + SECRET + "]", "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":{\"k\":tru" + SECRET + "}}")) {
                assertThatThrownBy(() -> JsonRpcCodec.decode(garbage))
                        .isInstanceOf(McpProtocolException.class)
                        .hasMessageStartingWith("not valid JSON")
                        .message().doesNotContain(SECRET);
            }
        }

        @Test
        void trailingContentAfterTheMessageIsRejected() {
            assertThatThrownBy(() -> JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"a\"} {\"x\":1}"))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageStartingWith("not valid JSON");
        }

        @Test
        void errorCodeOutOfIntRangeIsRejected() {
            for (String code : List.of("4294967295", "-2147483649", "123456789012345678901234567890")) {
                assertThatThrownBy(() -> JsonRpcCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":"
                        + code + ",\"message\":\"m\"}}"))
                        .as("code %s", code)
                        .isInstanceOf(McpProtocolException.class)
                        .hasMessageContaining("error \"code\"")
                        .message().doesNotContain("is an integer, not an integer");
            }
        }

        @Test
        void extremeIntCodesAreAccepted() {
            for (int code : new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0}) {
                JsonRpcMessage m = decodeOne("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":" + code
                        + ",\"message\":\"m\"}}");
                assertThat(((JsonRpcMessage.ErrorResponse) m).error().code()).isEqualTo(code);
            }
        }
    }

    @Nested
    class Kind {
        @Test
        void namesEveryJsonKindWithoutTheValue() {
            List<Object> values = new ArrayList<>();
            values.add(null);
            values.addAll(List.of(SECRET, 1, 1L, new java.math.BigInteger("1"), 1.5, new java.math.BigDecimal("1.5"),
                    true, List.of(SECRET), Map.of("k", SECRET)));
            List<String> kinds = values.stream().map(JsonRpcCodec::kind).toList();
            assertThat(kinds).containsExactly("null", "a string", "an integer", "an integer", "an integer",
                    "a number", "a number", "a boolean", "an array", "an object");
        }
    }
}
