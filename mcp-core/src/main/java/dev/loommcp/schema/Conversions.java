package dev.loommcp.schema;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.Json;
import tools.jackson.core.JacksonException;

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
            return Json.MAPPER.convertValue(value, type);
        } catch (JacksonException e) {
            throw new McpProtocolException(what + " does not fit " + type.getName() + where(e)
                    + " (" + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
            throw new McpProtocolException(what + " does not fit " + type.getName()
                    + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Returns {@code " at /a/0/b"} for the exception's JSON path, or an empty string if it has none. */
    private static String where(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append('/').append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('/').append(ref.getIndex());
            }
        }
        return path.isEmpty() ? "" : " at " + path;
    }
}
