package dev.loommcp.internal.json;

import dev.loommcp.internal.json.plain.PlainJson;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
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

    static final ObjectReadContext READ = ObjectReadContext.empty();
    static final ObjectWriteContext WRITE = ObjectWriteContext.empty();

    private JsonStreams() {
    }
}
