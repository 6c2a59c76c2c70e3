package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Audio, {@code type: "audio"} (MCP 2025-11-25 "AudioContent", from 2025-03-26).
 *
 * @param data        the base64-encoded audio data (not decoded by loom-mcp)
 * @param mimeType    the audio MIME type, such as {@code "audio/wav"}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record AudioContent(@Nullable String data, @Nullable String mimeType, @Nullable Annotations annotations,
                           @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ContentBlock {

    /** The wire value of {@code type} for this block: {@value}. */
    public static final String TYPE = "audio";

    /** Creates the record; {@code meta} is copied. */
    public AudioContent {
        meta = Copies.map(meta);
    }

    /**
     * Returns an audio block without annotations or {@code _meta}.
     *
     * @param data     the base64-encoded data
     * @param mimeType the MIME type
     * @return the block
     */
    public static AudioContent of(String data, String mimeType) {
        return new AudioContent(data, mimeType, null, null);
    }

    /**
     * Returns {@value #TYPE}.
     *
     * @return {@value #TYPE}
     */
    @Override
    @JsonProperty("type")
    public String type() {
        return TYPE;
    }
}
