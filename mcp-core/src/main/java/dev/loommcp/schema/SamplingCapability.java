package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The client's {@code sampling} capability (MCP 2025-11-25 "ClientCapabilities.sampling"): present when the client
 * answers {@code sampling/createMessage}. An empty object ({@code {}}) declares plain sampling.
 *
 * @param context present (usually {@code {}}) if the client supports {@code includeContext} values other than
 *                {@code "none"}; or {@code null}
 * @param tools   present (usually {@code {}}) if the client supports {@code tools} and {@code toolChoice} in
 *                sampling requests (2025-11-25); or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SamplingCapability(@Nullable Map<String, @Nullable Object> context,
                                 @Nullable Map<String, @Nullable Object> tools) {

    /** Creates the record; maps are copied. */
    public SamplingCapability {
        context = Copies.map(context);
        tools = Copies.map(tools);
    }

    /**
     * Returns plain sampling, written as {@code {}}.
     *
     * @return the capability
     */
    public static SamplingCapability of() {
        return new SamplingCapability(null, null);
    }
}
