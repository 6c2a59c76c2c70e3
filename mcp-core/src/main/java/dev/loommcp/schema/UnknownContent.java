package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Map;
import java.util.Objects;

/**
 * A content block of a {@code type} this version of loom-mcp does not model (for example the sampling blocks
 * {@code tool_use} and {@code tool_result}, or a type from a later spec), or one without a {@code type}. The whole
 * JSON object is kept in {@link #raw()} and is written back exactly as received.
 *
 * @param type the {@code type} property as received, or {@code null} if absent or not a string
 * @param raw  the whole JSON object, {@code type} included, as plain JSON values; not {@code null}
 */
public record UnknownContent(String type, Map<String, Object> raw) implements ContentBlock {

    /**
     * Creates the record; {@code raw} is copied (shallowly) and {@code type} is taken as given.
     *
     * @throws NullPointerException if {@code raw} is {@code null}
     */
    public UnknownContent {
        raw = Copies.map(Objects.requireNonNull(raw, "raw"));
    }

    /**
     * Wraps a JSON object, taking {@code type} from its {@code type} property. Used when decoding.
     *
     * @param raw the JSON object
     * @return the block
     * @throws NullPointerException if {@code raw} is {@code null}
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static UnknownContent of(Map<String, Object> raw) {
        Objects.requireNonNull(raw, "raw");
        return new UnknownContent(raw.get("type") instanceof String s ? s : null, raw);
    }

    /**
     * Returns the JSON object to write: {@link #raw()} unchanged.
     *
     * @return the raw object
     */
    @JsonValue
    Map<String, Object> json() {
        return raw;
    }
}
