package dev.loommcp.internal.json;

import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The streaming JSON factory of the wire path (codec, handshake). It is separate from {@link Json#MAPPER} because
 * building the data-binding mapper costs hundreds of milliseconds on a cold JVM: connecting and the common calls must
 * not wait for it.
 */
final class JsonStreams {

    /** Thread-safe; generators never close the caller's stream. */
    static final JsonFactory FACTORY = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    static final ObjectReadContext READ = ObjectReadContext.empty();
    static final ObjectWriteContext WRITE = ObjectWriteContext.empty();

    private JsonStreams() {
    }
}
