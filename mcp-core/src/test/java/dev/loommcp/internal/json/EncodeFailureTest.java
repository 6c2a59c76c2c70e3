package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpRpcException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What cannot be written as JSON fails with a clear IllegalArgumentException, never a Jackson type. */
class EncodeFailureTest {

    @Test
    void aCyclicArgumentIsRefusedClearly() {
        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("self", cyclic);
        assertThatThrownBy(() -> JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                Map.of("arguments", cyclic))))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tools/call")
                .hasMessageContaining("plain JSON")
                .hasNoCause();
    }

    @Test
    void aNullMapKeyIsRefusedClearly() {
        Map<String, Object> nullKey = new HashMap<>();
        nullKey.put(null, "secret-value");
        assertThatThrownBy(() -> JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(2), "tools/call",
                Map.of("arguments", nullKey))))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("secret-value");
    }

    private static String refusalOf(Object arguments) {
        IllegalArgumentException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                IllegalArgumentException.class, () -> JsonRpcCodec.encode(new JsonRpcMessage.Request(
                        RequestId.of(4), "tools/call", Map.of("name", "t", "arguments", arguments))));
        assertThat(e).as("refused").isNotNull().hasNoCause();
        return e.getMessage();
    }

    /** Issue 26 item 15: objects that are not JSON values were bean-serialised and sent (a Thread, new Object()). */
    @Test
    void anObjectThatIsNotAJsonValueIsRefusedWithItsPathNeverBeanSerialised() {
        Thread thread = Thread.currentThread();
        Map<String, Object> when = new java.util.LinkedHashMap<>();
        when.put("when", thread);
        assertThat(refusalOf(Map.of("items", java.util.List.of("a", 1, when))))
                .isEqualTo("the params of tools/call cannot be written as JSON: arguments.items[2].when: "
                        + "java.lang.Thread is not a JSON value; use Map with String keys, List, String, Number, "
                        + "Boolean or null");
        assertThat(refusalOf(Map.of("o", new Object()))).contains("arguments.o: java.lang.Object is not a JSON value");
        assertThat(refusalOf(Map.of("data", new byte[] {1, 2})))
                .contains("arguments.data: byte[] is not a JSON value (send binary data as Base64 text)");
        assertThat(refusalOf(Map.of("names", new String[] {"a"})))
                .contains("arguments.names: java.lang.String[] is not a JSON value (use a List)");
        assertThat(refusalOf(Map.of("tags", java.util.Set.of("a"))))
                .contains("arguments.tags: java.util.ImmutableCollections$Set12 is not a JSON value (use a List)");
        assertThat(refusalOf(Map.of("c", 'x'))).contains("arguments.c: java.lang.Character is not a JSON value");
        assertThat(refusalOf(Map.of("u", java.time.Duration.ofSeconds(1))))
                .contains("arguments.u: java.time.Duration is not a JSON value");
        assertThat(refusalOf(Map.of("m", Map.of(1, "x")))).contains("arguments.m: a map key that is not a String "
                + "(java.lang.Integer)");
        // the refusal of a whole params value has no path
        assertThatThrownBy(() -> JsonRpcCodec.writeText(new Object()))
                .hasMessage("java.lang.Object is not a JSON value; use Map with String keys, List, String, Number, "
                        + "Boolean or null");
    }

    /** The SDK's own records still go out, converted; a free-form member holding a non-JSON value is refused. */
    @Test
    void sdkRecordsAreSentAndTheirFreeFormMembersAreChecked() {
        assertThat(JsonRpcCodec.writeText(Map.of("r", dev.loommcp.schema.ElicitResult.accept(Map.of("n", 1)),
                "level", dev.loommcp.schema.LoggingLevel.INFO)))
                .contains("\"r\":{\"action\":\"accept\",\"content\":{\"n\":1}}").contains("\"level\":\"info\"");
        Object answer = new dev.loommcp.schema.ElicitResult("accept", Map.of("n", 1), Map.of("who", new Object()));
        assertThat(refusalOf(Map.of("answer", answer)))
                .contains("arguments.answer._meta.who: java.lang.Object is not a JSON value");
        assertThatThrownBy(() -> Json.toPlain(answer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("_meta.who: java.lang.Object is not a JSON value");
    }

    @Test
    void numbersOfOtherClassesAreWrittenAsTheirValue() {
        assertThat(JsonRpcCodec.writeText(java.util.List.of(new java.util.concurrent.atomic.AtomicLong(7),
                new java.util.concurrent.atomic.AtomicInteger(-2)))).isEqualTo("[7,-2]");
    }

    @Test
    void aHugeServerErrorMessageIsShortenedInTheExceptionMessageOnly() {
        String huge = "x".repeat(5_000_000);
        McpRpcException e = new McpRpcException("tools/list", RequestId.of(3), JsonRpcError.of(-32603, huge));
        assertThat(e.getMessage().length()).isLessThan(3_000);
        assertThat(e.getMessage()).contains("more characters");
        assertThat(e.errorMessage()).hasSize(5_000_000);
    }
}
