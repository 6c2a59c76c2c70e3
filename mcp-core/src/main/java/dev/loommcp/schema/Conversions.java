package dev.loommcp.schema;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.Binding;

/**
 * Converts plain JSON values into typed values with the shared mapper, failing with a message that names what was
 * converted, the target type and the JSON path of the problem, but never a value from the payload (Jackson's own
 * messages quote the offending value, so they are not used).
 */
final class Conversions {

    private Conversions() {
    }

    /**
     * Converts {@code value} into {@code type}.
     *
     * @throws McpProtocolException if the value does not fit; the message holds no payload data and there is no cause
     *                              (the cause's message would hold it)
     */
    static <T> T convert(Object value, Class<T> type, String what) {
        try {
            return Binding.convert(value, type, what);
        } catch (Binding.Mismatch e) {
            throw new McpProtocolException(e.getMessage()); // no cause: the message is all there is, payload-free
        }
    }
}
