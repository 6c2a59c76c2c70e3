package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A content block of a {@code type} this version of loom-mcp does not model (for example the sampling blocks
 * {@code tool_use} and {@code tool_result}, or a type from a later spec), or one without a {@code type}. The whole
 * JSON object is kept in {@link #raw()} and is written back as received, in the same order. (One exception: a
 * {@code type} that is not a JSON string, which no spec allows, is read and kept as its text.)
 *
 * @param type the {@code type} property as received, or {@code null} if absent
 * @param raw  the whole JSON object, {@code type} included, as plain JSON values; not {@code null}
 */
public record UnknownContent(@JsonIgnore @Nullable String type,
                             @JsonIgnore Map<String, @Nullable Object> raw) implements ContentBlock {

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
    public static UnknownContent of(Map<String, @Nullable Object> raw) {
        Objects.requireNonNull(raw, "raw");
        return new UnknownContent(raw.get("type") instanceof String s ? s : null, raw);
    }

    /**
     * Returns the properties to write: those of {@link #raw()}, unchanged and in order.
     *
     * @return the raw object
     */
    @JsonAnyGetter
    Map<String, @Nullable Object> json() {
        return raw;
    }
}
