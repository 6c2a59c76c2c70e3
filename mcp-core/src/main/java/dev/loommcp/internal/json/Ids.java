package dev.loommcp.internal.json;

import dev.loommcp.jsonrpc.RequestId;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * How the client compares JSON-RPC ids and progress tokens it receives with the ones it sent (all of which are
 * {@code long} integers). Exact everywhere but for the one lenient rule of responses ({@link #looseInteger}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Ids {

    /** A JSON number: what a string id must look like to stand for a number. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");
    /** Longer texts are never one of our ids (a long has at most 20 characters; leave room for "7.000"). */
    private static final int MAX_NUMBER_TEXT = 64;

    private Ids() {
    }

    /**
     * Returns the value of a plain JSON integer that fits a {@code long} exactly: an {@link Integer} or {@link Long}
     * as the codec reads them. Anything else (a fraction such as {@code 2.9}, an integer beyond the {@code long}
     * range such as {@code 2^64+2}, a string, {@code null}) gives {@code null}: it is never narrowed onto another
     * value.
     *
     * @param value a plain JSON value
     * @return the exact value, or {@code null}
     */
    public static Long exactInteger(Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return null;
    }

    /**
     * Returns the request id a plain JSON value names exactly: a string, or an integer that fits a {@code long}.
     *
     * @param value a plain JSON value (for example the {@code requestId} of {@code notifications/cancelled})
     * @return the id, or {@code null} for anything else (fractions and out-of-range integers included)
     */
    public static RequestId exactId(Object value) {
        if (value instanceof String s) {
            return RequestId.of(s);
        }
        Long n = exactInteger(value);
        return n == null ? null : RequestId.of(n);
    }

    /**
     * The lenient reading of a response id that matched no pending request exactly: a string id holding a JSON
     * number ({@code "7"}, {@code "7.0"}) or a numeric id that was not an integer on the wire ({@code 7.0}, which the
     * codec hands over as its text, see {@link JsonRpcCodec#decode(byte[], int, int)}) stands for the integer it
     * equals exactly.
     *
     * @param id a response id
     * @return the integer it equals, or {@code null} when it equals none ({@code "7.5"}, {@code "abc"}, a number
     *         beyond the {@code long} range, an integer id)
     */
    public static Long looseInteger(RequestId id) {
        if (!(id instanceof RequestId.StringId s)) {
            return null;
        }
        String text = s.value();
        if (text.isEmpty() || text.length() > MAX_NUMBER_TEXT || !JSON_NUMBER.matcher(text).matches()) {
            return null;
        }
        try {
            return new BigDecimal(text).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return null; // a fraction, or outside the long range
        }
    }
}
