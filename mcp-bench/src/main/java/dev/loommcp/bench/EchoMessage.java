package dev.loommcp.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One message read in a single pass over its bytes: the envelope's {@code id}, {@code method} and
 * {@code params}, and while passing over {@code params} the members the answers need ({@code name},
 * {@code arguments.text}, {@code arguments.ms}, {@code arguments.reset}, {@code protocolVersion}) and whether
 * {@code _meta} holds the modern protocol version. Spans are [from, to) in {@link #b}, -1 when absent; for a
 * member that occurs twice the first counts (the envelope's members: the last). Every value is skipped once,
 * with tight loops over strings and brackets; {@link #parse} throws IllegalArgumentException on malformed input.
 * Also finds line ends in the stdio input ({@link #newline}), with the same eight-bytes-at-a-time scan.
 *
 * <p>Not thread-safe: one instance per message, used by the thread that handles it. Split out of
 * {@link EchoServer}, which answers what it reads.
 */
final class EchoMessage {
    // the member names and values the message reader looks for, as the bytes they are on the wire (without quotes)
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final byte[] ID = EchoServer.ascii("id");
    private static final byte[] METHOD = EchoServer.ascii("method");
    private static final byte[] PARAMS = EchoServer.ascii("params");
    private static final byte[] NAME = EchoServer.ascii("name");
    private static final byte[] ARGUMENTS = EchoServer.ascii("arguments");
    private static final byte[] META = EchoServer.ascii("_meta");
    private static final byte[] META_PROTOCOL_VERSION = EchoServer.ascii("io.modelcontextprotocol/protocolVersion");
    private static final byte[] PROTOCOL_VERSION = EchoServer.ascii("protocolVersion");
    private static final byte[] TEXT = EchoServer.ascii("text");
    private static final byte[] MS = EchoServer.ascii("ms");
    private static final byte[] RESET = EchoServer.ascii("reset");

    final byte[] b;
    final int end;
    final boolean dual;
    int pos;
    int idFrom = -1;
    int idTo = -1;
    int methodFrom = -1;
    int methodTo = -1;
    int nameFrom = -1;
    int nameTo = -1;
    int textFrom = -1;
    int textTo = -1;
    int msFrom = -1;
    int msTo = -1;
    int versionFrom = -1;
    int versionTo = -1;
    boolean reset;
    boolean modern;
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    /** Kinds of object, by where they are in the message. */
    private static final int ENVELOPE = 0;
    private static final int IN_PARAMS = 1;
    private static final int IN_ARGUMENTS = 2;
    private static final int IN_META = 3;
    private boolean argsSeen;
    private boolean metaSeen;

    EchoMessage(byte[] b, int from, int to, boolean dual) {
        this.b = b;
        this.pos = from;
        this.end = to;
        this.dual = dual;
    }

    /** Reads the message; false for a blank line. */
    boolean parse() {
        ws();
        if (pos >= end) {
            return false;
        }
        if (peek() != '{') {
            throw new IllegalArgumentException("expected {");
        }
        object(ENVELOPE);
        return true;
    }

    /** Reads the object at pos (its opening brace), each member's value through {@link #value}. */
    private void object(int kind) {
        pos++;
        ws();
        if (peek() == '}') {
            pos++;
            return;
        }
        while (true) {
            ws();
            int kFrom = pos;
            skipString();
            int kTo = pos;
            ws();
            expect(':');
            ws();
            value(kind, kFrom, kTo);
            ws();
            if (peek() == ',') {
                pos++;
                continue;
            }
            expect('}');
            return;
        }
    }

    /** Reads the value at pos of the member named by [kFrom, kTo) of an object of the given kind. */
    private void value(int kind, int kFrom, int kTo) {
        int vFrom = pos;
        if (kind == ENVELOPE && keyIs(kFrom, kTo, PARAMS)) {
            // the last params counts, as for the other envelope members
            nameFrom = textFrom = msFrom = versionFrom = -1;
            reset = modern = argsSeen = metaSeen = false;
            nested(IN_PARAMS);
            return;
        }
        if (kind == IN_PARAMS && !argsSeen && keyIs(kFrom, kTo, ARGUMENTS)) {
            argsSeen = true;
            nested(IN_ARGUMENTS);
            return;
        }
        if (kind == IN_PARAMS && !metaSeen && keyIs(kFrom, kTo, META)) {
            metaSeen = true;
            if (dual) {
                nested(IN_META);
            } else {
                skipValue();
            }
            return;
        }
        skipValue();
        switch (kind) {
            case ENVELOPE -> {
                if (keyIs(kFrom, kTo, ID)) {
                    idFrom = vFrom;
                    idTo = pos;
                } else if (keyIs(kFrom, kTo, METHOD)) {
                    methodFrom = vFrom;
                    methodTo = pos;
                }
            }
            case IN_PARAMS -> {
                if (nameFrom < 0 && keyIs(kFrom, kTo, NAME)) {
                    nameFrom = vFrom;
                    nameTo = pos;
                } else if (versionFrom < 0 && keyIs(kFrom, kTo, PROTOCOL_VERSION)) {
                    versionFrom = vFrom;
                    versionTo = pos;
                }
            }
            case IN_ARGUMENTS -> {
                if (textFrom < 0 && keyIs(kFrom, kTo, TEXT)) {
                    textFrom = vFrom;
                    textTo = pos;
                } else if (msFrom < 0 && keyIs(kFrom, kTo, MS)) {
                    msFrom = vFrom;
                    msTo = pos;
                } else if (keyIs(kFrom, kTo, RESET)) {
                    reset = true;
                }
            }
            default -> modern |= keyIs(kFrom, kTo, META_PROTOCOL_VERSION); // IN_META
        }
    }

    /** A value whose members matter when it is an object; any other value is skipped. */
    private void nested(int kind) {
        if (peek() == '{') {
            object(kind);
        } else {
            skipValue();
        }
    }

    boolean methodIs(byte[] value) {
        return keyIs(methodFrom, methodTo, value);
    }

    boolean nameIs(byte[] value) {
        return keyIs(nameFrom, nameTo, value);
    }

    private int peek() {
        if (pos >= end) {
            throw new IllegalArgumentException("unexpected end");
        }
        return b[pos];
    }

    private void ws() {
        while (pos < end) {
            byte c = b[pos];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            pos++;
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw new IllegalArgumentException("expected " + c);
        }
        pos++;
    }

    /** Skips the string at pos (its opening quote); pos ends after its closing quote. */
    private void skipString() {
        expect('"');
        pos = stringEnd(pos);
    }

    /**
     * The position after the closing quote of a string whose content starts at {@code p}. Eight bytes at a time
     * while no quote or backslash is among them (most of a message's bytes are in strings), then byte by byte.
     */
    private int stringEnd(int p) {
        byte[] bytes = b;
        int e = end;
        while (p + 8 <= e) {
            long w = (long) LONGS.get(bytes, p);
            long q = w ^ QUOTES;
            long s = w ^ BACKSLASHES;
            long hits = ((q - ONES) & ~q | (s - ONES) & ~s) & HIGHS;
            if (hits == 0) {
                p += 8;
                continue;
            }
            // the lowest flagged byte is exact (the borrow only spreads to higher ones): the first quote or
            // backslash
            p += Long.numberOfTrailingZeros(hits) >>> 3;
            if (bytes[p++] == '"') {
                return p;
            }
            p++; // the escaped byte
        }
        while (p < e) {
            byte c = bytes[p++];
            if (c == '"') {
                return p;
            }
            if (c == '\\') {
                p++;
            }
        }
        throw new IllegalArgumentException("unexpected end");
    }

    private void skipValue() {
        int c = peek();
        if (c == '"') {
            pos = stringEnd(pos + 1);
        } else if (c == '{' || c == '[') {
            byte[] bytes = b;
            int e = end;
            int p = pos + 1;
            int depth = 1;
            while (p < e) {
                byte x = bytes[p++];
                if (x == '"') {
                    p = stringEnd(p);
                } else if (x == '{' || x == '[') {
                    depth++;
                } else if ((x == '}' || x == ']') && --depth == 0) {
                    pos = p;
                    return;
                }
            }
            throw new IllegalArgumentException("unexpected end");
        } else {
            int start = pos;
            while (pos < end) {
                c = b[pos];
                if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                throw new IllegalArgumentException("expected a value");
            }
        }
    }

    /** Whether the raw string token [from, to) (quotes included, no escapes) is {@code "value"}. */
    private boolean keyIs(int from, int to, byte[] value) {
        int n = value.length;
        if (to - from != n + 2 || b[from] != '"') {
            return false;
        }
        return Arrays.equals(b, from + 1, from + 1 + n, value, 0, n);
    }

    /** The position of the first line end in [from, to), or {@code to}; eight bytes at a time. */
    static int newline(byte[] b, int from, int to) {
        int p = from;
        while (p + 8 <= to) {
            long w = (long) LONGS.get(b, p) ^ NEWLINES;
            long hits = (w - ONES) & ~w & HIGHS;
            if (hits != 0) {
                return p + (Long.numberOfTrailingZeros(hits) >>> 3);
            }
            p += 8;
        }
        while (p < to && b[p] != '\n') {
            p++;
        }
        return p;
    }
}
