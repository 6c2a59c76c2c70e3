package dev.loommcp.internal.json;

import tools.jackson.core.SerializableString;

/**
 * A JSON value that keeps its own encoding: {@link JsonRpcCodec} writes {@link #json()} as it is instead of walking
 * the value. {@link EncodedMap} is the one kind; the codec knows only this interface, so that {@code EncodedMap} can
 * encode itself with the codec without the two depending on each other.
 */
interface PreEncodedJson {

    /**
     * Returns the value's JSON text.
     *
     * @return the text, with its UTF-8 bytes cached
     */
    SerializableString json();
}
