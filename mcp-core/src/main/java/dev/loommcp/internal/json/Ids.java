package dev.loommcp.internal.json;

import dev.loommcp.internal.json.plain.JsonNumbers;
import dev.loommcp.jsonrpc.RequestId;

/**
 * How the client compares JSON-RPC ids and progress tokens it receives with the ones it sent (all of which are
 * {@code long} integers). Exact everywhere but for the one lenient rule of responses ({@link #looseInteger}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Ids {

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
     * equals exactly. The rule is {@link JsonNumbers#looseInteger}'s, the one {@link RequestId#looselyMatches}
     * applies too.
     *
     * @param id a response id
     * @return the integer it equals, or {@code null} when it equals none ({@code "7.5"}, {@code "abc"}, a number
     *         beyond the {@code long} range, an integer id)
     */
    public static Long looseInteger(RequestId id) {
        return id instanceof RequestId.StringId s ? JsonNumbers.looseInteger(s.value()) : null;
    }
}
