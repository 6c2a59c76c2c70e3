package dev.loommcp.internal.json;

import java.util.List;
import java.util.Map;

/**
 * A cheap estimate of how many bytes a plain JSON value takes as JSON text, for byte budgets when the transport did
 * not report the size of the frame a message came in. One pass over the value (string lengths are read, not their
 * characters); strings count one byte per character, numbers 8 bytes, every other node its punctuation.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonSize {

    /** What a notification's envelope ({@code {"jsonrpc":"2.0","method":...,"params":...}}) adds. */
    private static final int ENVELOPE = 40;

    private JsonSize() {
    }

    /**
     * Estimates the size of a notification or request with these method and params.
     *
     * @param method the method
     * @param params the params (plain JSON values), or {@code null}
     * @return the estimated size in bytes, positive
     */
    public static long ofMessage(String method, Object params) {
        return ENVELOPE + method.length() + of(params);
    }

    /**
     * Estimates the size of a plain JSON value as JSON text.
     *
     * @param value the value ({@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} or
     *              {@code null}; any other object counts like a number)
     * @return the estimated size in bytes
     */
    public static long of(Object value) {
        return switch (value) {
            case null -> 4;
            case String s -> s.length() + 2L;
            case Map<?, ?> m -> {
                long n = 2;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    n += (e.getKey() instanceof String k ? k.length() : 8) + 4L + of(e.getValue());
                }
                yield n;
            }
            case List<?> l -> {
                long n = 2;
                for (Object o : l) {
                    n += 1 + of(o);
                }
                yield n;
            }
            case Boolean b -> 5;
            default -> 8;
        };
    }
}
