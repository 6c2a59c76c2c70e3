package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.ClientConfigs;
import dev.loommcp.McpClient;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.ScriptedTransport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Envelope#wrap}: the params a modern request sends are the caller's members, in order, with a {@code _meta}
 * that holds the caller's keys and the three protocol fields; without a caller {@code _meta} key they come as a
 * read-only view ({@link ParamsWithMeta}) that reads, compares and encodes exactly like the copy it replaces.
 */
class EnvelopeWrapTest {

    private static final String VERSION = ProtocolMode.MODERN_PROTOCOL_VERSION;

    private final Envelope envelope = new Envelope(
            ClientConfigs.of(McpClient.newBuilder(ScriptedTransport.create(ScriptedTransport.Mode.INLINE))),
            new ToolCatalog(OutputSchemaValidation.WARN), false);

    /** What wrap returned before the view: a copy of the params with {@code _meta} put (replaced or appended). */
    @SuppressWarnings("unchecked")
    private Map<String, Object> copied(Map<String, Object> params) {
        Map<String, Object> copy = params == null ? new LinkedHashMap<>() : new LinkedHashMap<>(params);
        Map<String, Object> meta = new LinkedHashMap<>();
        if (copy.get("_meta") instanceof Map<?, ?> callers) {
            meta.putAll((Map<String, Object>) callers);
        }
        meta.put(Envelope.PROTOCOL_VERSION, VERSION);
        meta.put(Envelope.CLIENT_CAPABILITIES, envelope.capabilities());
        meta.put(Envelope.CLIENT_INFO, ((Map<String, Object>) envelope.wrap(null, VERSION).get("_meta"))
                .get(Envelope.CLIENT_INFO));
        copy.put("_meta", meta);
        return copy;
    }

    private static String encoded(Map<String, Object> params) {
        return new String(JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", params)),
                StandardCharsets.UTF_8);
    }

    @Test
    void wrappedParamsReadCompareAndEncodeLikeTheCopy() {
        Map<String, Object> nullMeta = new LinkedHashMap<>();
        nullMeta.put("name", "t");
        nullMeta.put("_meta", null);
        Map<String, Object> withNullValue = new HashMap<>();
        withNullValue.put("cursor", null);
        List<Map<String, Object>> cases = Arrays.asList(null, Map.of(), Map.of("name", "echo"),
                linked("name", "echo", "arguments", Map.of("text", "hi"), "task", Map.of()),
                linked("name", "t", "_meta", Map.of("k", 1), "arguments", List.of()),
                linked("_meta", Map.of(), "name", "t"), linked("name", "t", "_meta", "not an object"), nullMeta,
                withNullValue);
        for (Map<String, Object> params : cases) {
            Map<String, Object> wrapped = envelope.wrap(params, VERSION);
            Map<String, Object> expected = copied(params);
            assertThat(wrapped).as("%s", params).isEqualTo(expected).hasSameHashCodeAs(expected);
            assertThat(expected).as("%s", params).isEqualTo(wrapped);
            assertThat(new ArrayList<>(wrapped.keySet())).as("%s", params)
                    .containsExactlyElementsOf(expected.keySet());
            assertThat(wrapped.size()).isEqualTo(expected.size());
            for (String key : expected.keySet()) {
                assertThat(wrapped.containsKey(key)).as(key).isTrue();
                assertThat(wrapped.get(key)).as(key).isEqualTo(expected.get(key));
            }
            assertThat(wrapped.containsKey("absent")).isFalse();
            assertThat(wrapped.get("absent")).isNull();
            assertThat(wrapped.get(null)).isNull();
            assertThat(wrapped.containsKey(null)).isFalse();
            assertThat(wrapped.get(7)).isNull();
            assertThat(encoded(wrapped)).as("%s", params).isEqualTo(encoded(expected));
        }
    }

    @Test
    void theViewOfParamsWithoutMetaRejectsChanges() {
        Map<String, Object> params = linked("name", "echo", "arguments", Map.of("text", "hi"));
        Map<String, Object> wrapped = envelope.wrap(params, VERSION);
        assertThat(wrapped).isInstanceOf(ParamsWithMeta.class);
        assertThat(envelope.wrap(null, VERSION)).isInstanceOf(ParamsWithMeta.class).containsOnlyKeys("_meta");
        assertThatThrownBy(() -> wrapped.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> wrapped.remove("name")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(wrapped::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> wrapped.entrySet().iterator().next().setValue("other"))
                .isInstanceOf(UnsupportedOperationException.class);
        var it = wrapped.entrySet().iterator();
        it.next();
        assertThatThrownBy(it::remove).isInstanceOf(UnsupportedOperationException.class);
        assertThat(params).containsOnlyKeys("name", "arguments");
        var all = wrapped.entrySet().iterator();
        all.next();
        all.next();
        all.next();
        assertThat(all.hasNext()).isFalse();
        assertThatThrownBy(all::next).isInstanceOf(java.util.NoSuchElementException.class);
    }

    private static Map<String, Object> linked(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
