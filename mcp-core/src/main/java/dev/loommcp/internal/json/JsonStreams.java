package dev.loommcp.internal.json;

import dev.loommcp.internal.json.plain.PlainJson;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The streaming JSON factory of the wire path (codec, handshake). It is separate from {@link Json#mapper()} because
 * building the data-binding mapper costs hundreds of milliseconds on a cold JVM: connecting and the common calls must
 * not wait for it.
 */
final class JsonStreams {

    /**
     * Thread-safe; generators never close the caller's stream. Their nesting limit lies above the codec's own
     * ({@link PlainJson#MAX_DEPTH} plus the message's envelope), so that a value nested too deep, or a cycle,
     * is refused with the codec's message, which says so, rather than the generator's.
     */
    static final JsonFactory FACTORY = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .streamWriteConstraints(StreamWriteConstraints.builder()
                    .maxNestingDepth(PlainJson.MAX_DEPTH + 16).build())
            .build();

    /**
     * For the failure path only ({@link JsonRpcCodec#malformedResponseId}): a text the codec refused because it broke
     * a read limit (nested deeper than {@link StreamReadConstraints#DEFAULT_MAX_DEPTH}, a string or number longer
     * than its limit) is scanned again for its top-level {@code "id"} without those limits. The scan streams
     * (Jackson's parser keeps no stack of its own), skips every value but the id, and reads at most the bytes the
     * transport already bounded by its message limit.
     */
    static final JsonFactory SCAN = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Integer.MAX_VALUE).maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE).maxNameLength(Integer.MAX_VALUE)
                    .maxDocumentLength(-1).maxTokenCount(-1).build())
            .build();

    static final ObjectReadContext READ = ObjectReadContext.empty();
    static final ObjectWriteContext WRITE = ObjectWriteContext.empty();

    private JsonStreams() {
    }
}
