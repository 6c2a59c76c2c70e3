package dev.loommcp.transport.http;

import dev.loommcp.McpProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental Server-Sent Events parser following the WHATWG HTML "event stream interpretation" rules: lines end
 * with CRLF, LF or CR (also when split across chunks), a leading UTF-8 BOM is skipped, {@code :} lines are comments,
 * {@code data} lines accumulate with {@code \n}, {@code id} (without NUL) sets the last event id, {@code retry} (ASCII
 * digits only) sets the reconnection time, an empty line dispatches, and an event not ended by an empty line at the
 * end of the stream is dropped.
 *
 * <p>One deviation: an {@code id} that could not be sent back as the {@code Last-Event-ID} header (a control
 * character, DEL, or a character above U+00FF) counts as an empty {@code id}, that is, it resets the last event id
 * to none: resuming from it is impossible, and resuming from an older id would replay events already handled.
 *
 * <p>Events are bounded: a line or an event larger than the maximum fails with {@link McpProtocolException}.
 *
 * <p>Not thread-safe: one parser per stream, fed by one thread.
 */
final class SseParser {

    /** Receives dispatched events. */
    interface Listener {
        /**
         * Called for each dispatched event that had at least one {@code data} line (its data may still be empty, as
         * in the priming event of MCP 2025-11-25).
         *
         * @param type        the event type ({@code message} when none was given)
         * @param data        the data, lines joined with {@code \n}
         * @param lastEventId the last event id at dispatch, or {@code null} when none
         */
        void onEvent(String type, String data, String lastEventId);
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final int maxEventBytes;
    private final Listener listener;

    private byte[] line = new byte[128];
    private int lineLength;
    private boolean afterCr;
    private boolean firstLine = true;

    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventType = "";
    private String lastEventIdBuffer;
    private String lastEventId;
    private long retryMillis = -1;
    private long eventBytes;
    private long dispatches;
    private long unsendableIds;
    /** Whether event ids mean nothing on this stream (modern era: never sent back), so none is "unsendable". */
    private boolean idsIgnored;

    /**
     * Creates a parser.
     *
     * @param maxEventBytes the largest line or event accepted, in bytes
     * @param initialLastEventId the last event id to start from (a resumed stream), or {@code null}
     * @param listener      where events go
     */
    SseParser(int maxEventBytes, String initialLastEventId, Listener listener) {
        this.maxEventBytes = maxEventBytes;
        this.listener = listener;
        this.lastEventIdBuffer = initialLastEventId;
        this.lastEventId = initialLastEventId;
    }

    /**
     * Marks event ids as meaningless on this stream (MCP 2026-07-28: streams are not resumable): ids are still
     * parsed but never counted as unsendable.
     *
     * @return this parser
     */
    SseParser ignoreIds() {
        idsIgnored = true;
        return this;
    }

    /** Returns the last event id set by a dispatched event (or the initial one), or {@code null}. */
    String lastEventId() {
        return lastEventId;
    }

    /** Returns the reconnection time the server asked for with {@code retry}, in milliseconds, or -1. */
    long retryMillis() {
        return retryMillis;
    }

    /** Returns how many {@code id} fields were treated as none because they cannot be sent back as a header. */
    long unsendableIds() {
        return idsIgnored ? 0 : unsendableIds;
    }

    /** Returns how many events were dispatched, including those with empty data (priming events). */
    long dispatches() {
        return dispatches;
    }

    /**
     * Feeds bytes; dispatches complete events to the listener.
     *
     * @param buffer the bytes, consumed entirely
     * @throws McpProtocolException when a line or an event exceeds the maximum size
     */
    void feed(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            int off = buffer.arrayOffset() + buffer.position();
            feed(buffer.array(), off, buffer.remaining());
            buffer.position(buffer.limit());
        } else {
            byte[] b = new byte[buffer.remaining()];
            buffer.get(b);
            feed(b, 0, b.length);
        }
    }

    /**
     * Feeds bytes; dispatches complete events to the listener.
     *
     * @param bytes  the array
     * @param offset first byte
     * @param length number of bytes
     * @throws McpProtocolException when a line or an event exceeds the maximum size
     */
    void feed(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int start = offset;
        for (int i = offset; i < end; i++) {
            byte b = bytes[i];
            if (b == LF) {
                if (afterCr) {
                    afterCr = false;
                    start = i + 1;
                    continue;
                }
                append(bytes, start, i - start);
                endOfLine();
                start = i + 1;
            } else if (b == CR) {
                append(bytes, start, i - start);
                endOfLine();
                afterCr = true;
                start = i + 1;
            } else {
                afterCr = false;
            }
        }
        append(bytes, start, end - start);
    }

    private void append(byte[] bytes, int offset, int length) {
        if (length <= 0) {
            return;
        }
        int needed = lineLength + length;
        if (needed > maxEventBytes) {
            throw new McpProtocolException("SSE line longer than the maximum of " + maxEventBytes + " bytes");
        }
        if (needed > line.length) {
            line = Arrays.copyOf(line, Math.min(maxEventBytes, Math.max(needed, line.length * 2)));
        }
        System.arraycopy(bytes, offset, line, lineLength, length);
        lineLength = needed;
    }

    private void endOfLine() {
        int from = 0;
        if (firstLine) {
            firstLine = false;
            if (lineLength >= 3 && (line[0] & 0xff) == 0xEF && (line[1] & 0xff) == 0xBB && (line[2] & 0xff) == 0xBF) {
                from = 3;
            }
        }
        int len = lineLength - from;
        lineLength = 0;
        if (len == 0) {
            dispatch();
            return;
        }
        if (line[from] == ':') {
            return; // comment
        }
        eventBytes += len;
        if (eventBytes > maxEventBytes) {
            throw new McpProtocolException("SSE event larger than the maximum of " + maxEventBytes + " bytes");
        }
        int colon = -1;
        for (int i = from; i < from + len; i++) {
            if (line[i] == ':') {
                colon = i;
                break;
            }
        }
        String field;
        String value;
        if (colon < 0) {
            field = new String(line, from, len, StandardCharsets.UTF_8);
            value = "";
        } else {
            field = new String(line, from, colon - from, StandardCharsets.UTF_8);
            int v = colon + 1;
            if (v < from + len && line[v] == ' ') {
                v++;
            }
            value = new String(line, v, from + len - v, StandardCharsets.UTF_8);
        }
        switch (field) {
            case "event" -> eventType = value;
            case "data" -> {
                data.append(value).append('\n');
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    if (HeaderRules.isValidValue(value)) {
                        lastEventIdBuffer = value;
                    } else {
                        lastEventIdBuffer = "";
                        unsendableIds++;
                    }
                    idSeen = true;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    // a server may not park a reconnect for longer than HttpTransport.MAX_SERVER_RETRY
                    retryMillis = value.length() > 12 ? HttpSettings.MAX_SERVER_RETRY_MILLIS
                            : Math.min(Long.parseLong(value), HttpSettings.MAX_SERVER_RETRY_MILLIS);
                }
            }
            default -> {
                // unknown fields are ignored
            }
        }
    }

    private boolean idSeen;

    private void dispatch() {
        lastEventId = lastEventIdBuffer == null || lastEventIdBuffer.isEmpty() ? null : lastEventIdBuffer;
        eventBytes = 0;
        if (hasData || idSeen) {
            dispatches++; // a blank line after only comments (a keep-alive) is not an event
        }
        idSeen = false;
        if (!hasData) {
            eventType = "";
            return;
        }
        data.setLength(data.length() - 1);
        String type = eventType.isEmpty() ? "message" : eventType;
        String d = data.toString();
        data.setLength(0);
        hasData = false;
        eventType = "";
        listener.onEvent(type, d, lastEventId);
    }
}
