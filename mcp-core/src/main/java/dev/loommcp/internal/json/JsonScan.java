package dev.loommcp.internal.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte scans for the reader thread's fast path ({@link JsonRpcCodec}): finding where a JSON string's plain run of
 * bytes stops, eight bytes at a time. Most of a modern result's bytes are inside strings (the long
 * {@code io.modelcontextprotocol/...} keys of its {@code _meta}), so the scan of a line's brackets spends its time
 * here. Stateless and thread-safe.
 */
final class JsonScan {

    /** Eight bytes of an array as one little-endian {@code long}: the lowest byte is the first. */
    private static final VarHandle EIGHT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long EACH_ONE = 0x0101010101010101L;
    private static final long EACH_HIGH_BIT = 0x8080808080808080L;
    private static final long EACH_QUOTE = EACH_ONE * '"';
    private static final long EACH_BACKSLASH = EACH_ONE * '\\';
    private static final long EACH_SPACE = EACH_ONE * ' ';

    private JsonScan() {
    }

    /**
     * The index of the first byte in {@code [from, end)} that ends a plain run inside a JSON string: a quote
     * ({@code "}), a backslash, or a control character ({@code 0x00} to {@code 0x1f}); bytes of multi-byte UTF-8
     * characters ({@code 0x80} and above) never stop it.
     *
     * @param b    the bytes
     * @param from where to start
     * @param end  where to stop looking (exclusive; at most {@code b.length})
     * @return the index of that byte, or a value {@code >= end} when there is none
     */
    static int stringStop(byte[] b, int from, int end) {
        int i = from;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            long w = (long) EIGHT.get(b, i);
            // per byte, the high bit of each term is set where the byte is a quote, a backslash, below 0x20; a borrow
            // can only mark bytes above the first true one, so the lowest mark is exact
            long quote = w ^ EACH_QUOTE;
            long backslash = w ^ EACH_BACKSLASH;
            long marks = ((quote - EACH_ONE) & ~quote | (backslash - EACH_ONE) & ~backslash | (w - EACH_SPACE) & ~w)
                    & EACH_HIGH_BIT;
            if (marks != 0) {
                return i + (Long.numberOfTrailingZeros(marks) >>> 3);
            }
        }
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) {
                return i;
            }
        }
        return i;
    }
}
