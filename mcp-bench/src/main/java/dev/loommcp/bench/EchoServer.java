package dev.loommcp.bench;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A minimal MCP server over stdio for the benchmarks: newline-delimited JSON-RPC, hand-written so that its own cost
 * per call stays far below any client's.
 *
 * <p>It answers {@code initialize} (echoing the client's protocol version), {@code ping}, {@code tools/list} and
 * {@code tools/call} for two tools: {@code echo {text}} answers with {@code text} as one text content block, and
 * {@code sleep {ms}} answers after {@code ms} milliseconds without holding up other calls (the answer is scheduled on a
 * timer thread). Notifications ({@code notifications/initialized}, {@code notifications/cancelled}) and responses are
 * ignored; any other request gets {@code -32601 Method not found} (so a client that probes {@code server/discover}
 * falls back to {@code initialize}). An unlisted third tool, {@code stats {reset?}}, answers
 * {@code {"pending":n,"maxPending":m}} as text: how many {@code sleep} answers are waiting now and the most that ever
 * waited at once (since the last reset), the scale run's proof that its calls really were in flight together.
 *
 * <p>How it stays cheap: one reader thread reads stdin in 64 KiB chunks and scans each line in place (no JSON tree, no
 * strings: the request id and the echoed text are copied to the answer as the raw JSON tokens they were); answers are
 * appended to one buffer and written with one {@code write} per chunk read, so a burst of requests costs one system
 * call. Answers to {@code sleep} are kept in a queue ordered by deadline and every answer due at once is written with
 * one call too. Only JDK classes are used, so the JVM starts fast.
 */
public final class EchoServer {

    private static final byte[] JSONRPC_ID = ascii("{\"jsonrpc\":\"2.0\",\"id\":");
    private static final byte[] RESULT = ascii(",\"result\":");
    private static final byte[] ERROR = ascii(",\"error\":{\"code\":");
    private static final byte[] TEXT_BLOCK_OPEN = ascii("{\"content\":[{\"type\":\"text\",\"text\":");
    private static final byte[] TEXT_BLOCK_CLOSE = ascii("}]}}\n");
    private static final byte[] EMPTY_RESULT = ascii("{}}\n");
    private static final byte[] TOOLS = ascii("{\"tools\":["
            + "{\"name\":\"echo\",\"description\":\"Returns its text argument\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}},"
            + "{\"name\":\"sleep\",\"description\":\"Answers after ms milliseconds\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"ms\"]}}"
            + "]}}\n");
    private static final String DEFAULT_VERSION = "\"2025-06-18\"";

    private final OutputStream out;
    private final ReentrantLock outLock = new ReentrantLock();
    private byte[] obuf = new byte[1 << 16];
    private int olen;

    private final ReentrantLock timerLock = new ReentrantLock();
    private final Condition timerChanged = timerLock.newCondition();
    private final PriorityQueue<Due> timer = new PriorityQueue<>();
    private long timerSeq;
    private long maxPending;

    private record Due(long deadline, long seq, byte[] answer) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private EchoServer(OutputStream out) {
        this.out = out;
    }

    /**
     * Runs the server on this process's stdin and stdout until stdin ends.
     *
     * @param args ignored
     * @throws IOException if stdout fails
     */
    public static void main(String[] args) throws IOException {
        EchoServer server = new EchoServer(new FileOutputStream(FileDescriptor.out));
        Thread timerThread = new Thread(server::timerLoop, "echo-timer");
        timerThread.setDaemon(true);
        timerThread.start();
        server.readLoop(new FileInputStream(FileDescriptor.in));
        System.exit(0);
    }

    private void readLoop(InputStream in) throws IOException {
        byte[] buf = new byte[1 << 16];
        int start = 0;
        int end = 0;
        while (true) {
            if (end == buf.length) {
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                return;
            }
            int scan = end;
            end += n;
            outLock.lock();
            try {
                for (int i = scan; i < end; i++) {
                    if (buf[i] == '\n') {
                        try {
                            handle(buf, start, i);
                        } catch (IllegalArgumentException e) {
                            error(null, 0, 0, -32700, "Parse error");
                        }
                        start = i + 1;
                    }
                }
                flushLocked();
            } finally {
                outLock.unlock();
            }
            if (start == end) {
                start = 0;
                end = 0;
            }
        }
    }

    // ---- one request; called with outLock held ----

    private void handle(byte[] b, int from, int to) {
        Scanner s = new Scanner(b, from, to);
        int idFrom = -1;
        int idTo = -1;
        int methodFrom = -1;
        int methodTo = -1;
        int paramsFrom = -1;
        int paramsTo = -1;
        try {
            s.ws();
            if (s.pos >= to) {
                return; // blank line
            }
            s.expect('{');
            s.ws();
            if (s.peek() != '}') {
                while (true) {
                    s.ws();
                    int kFrom = s.pos;
                    s.skipString();
                    int kTo = s.pos;
                    s.ws();
                    s.expect(':');
                    s.ws();
                    int vFrom = s.pos;
                    s.skipValue();
                    int vTo = s.pos;
                    if (s.keyIs(kFrom, kTo, "id")) {
                        idFrom = vFrom;
                        idTo = vTo;
                    } else if (s.keyIs(kFrom, kTo, "method")) {
                        methodFrom = vFrom;
                        methodTo = vTo;
                    } else if (s.keyIs(kFrom, kTo, "params")) {
                        paramsFrom = vFrom;
                        paramsTo = vTo;
                    }
                    s.ws();
                    if (s.peek() == ',') {
                        s.pos++;
                        continue;
                    }
                    s.expect('}');
                    break;
                }
            }
        } catch (IllegalArgumentException e) {
            error(null, 0, 0, -32700, "Parse error");
            return;
        }
        if (methodFrom < 0 || idFrom < 0 || (idTo - idFrom == 4 && b[idFrom] == 'n')) {
            return; // a notification, or a response to us: nothing to answer
        }
        if (s.valueIs(methodFrom, methodTo, "tools/call")) {
            toolsCall(b, idFrom, idTo, paramsFrom, paramsTo);
        } else if (s.valueIs(methodFrom, methodTo, "ping")) {
            begin(b, idFrom, idTo);
            put(RESULT);
            put(EMPTY_RESULT);
        } else if (s.valueIs(methodFrom, methodTo, "tools/list")) {
            begin(b, idFrom, idTo);
            put(RESULT);
            put(TOOLS);
        } else if (s.valueIs(methodFrom, methodTo, "initialize")) {
            initialize(b, idFrom, idTo, paramsFrom, paramsTo);
        } else {
            error(b, idFrom, idTo, -32601, "Method not found");
        }
    }

    private void initialize(byte[] b, int idFrom, int idTo, int pFrom, int pTo) {
        String version = DEFAULT_VERSION;
        if (pFrom >= 0) {
            int[] v = member(b, pFrom, pTo, "protocolVersion");
            if (v != null && b[v[0]] == '"') {
                version = new String(b, v[0], v[1] - v[0], StandardCharsets.UTF_8);
            }
        }
        begin(b, idFrom, idTo);
        put(RESULT);
        put(ascii("{\"protocolVersion\":" + version + ",\"capabilities\":{\"tools\":{}},"
                + "\"serverInfo\":{\"name\":\"loom-mcp-bench-echo\",\"version\":\"1.0\"}}}\n"));
    }

    private void toolsCall(byte[] b, int idFrom, int idTo, int pFrom, int pTo) {
        int[] name = pFrom < 0 ? null : member(b, pFrom, pTo, "name");
        int[] args = pFrom < 0 ? null : member(b, pFrom, pTo, "arguments");
        if (name == null || b[name[0]] != '"') {
            error(b, idFrom, idTo, -32602, "Invalid params: no tool name");
            return;
        }
        Scanner s = new Scanner(b, pFrom, pTo);
        if (s.valueIs(name[0], name[1], "echo")) {
            int[] text = args == null ? null : member(b, args[0], args[1], "text");
            if (text == null || b[text[0]] != '"') {
                error(b, idFrom, idTo, -32602, "Invalid params: echo needs a string text");
                return;
            }
            begin(b, idFrom, idTo);
            put(RESULT);
            put(TEXT_BLOCK_OPEN);
            put(b, text[0], text[1]);
            put(TEXT_BLOCK_CLOSE);
        } else if (s.valueIs(name[0], name[1], "sleep")) {
            int[] ms = args == null ? null : member(b, args[0], args[1], "ms");
            long millis = ms == null ? -1 : parseLong(b, ms[0], ms[1]);
            if (millis < 0) {
                error(b, idFrom, idTo, -32602, "Invalid params: sleep needs a non-negative integer ms");
                return;
            }
            byte[] answer = ascii("{\"jsonrpc\":\"2.0\",\"id\":"
                    + new String(b, idFrom, idTo - idFrom, StandardCharsets.UTF_8)
                    + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"slept " + millis + " ms\"}]}}\n");
            schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), answer);
        } else if (s.valueIs(name[0], name[1], "stats")) {
            long pendingNow;
            long maxPendingNow;
            timerLock.lock();
            try {
                pendingNow = timer.size();
                maxPendingNow = maxPending;
                if (args != null && member(b, args[0], args[1], "reset") != null) {
                    maxPending = pendingNow;
                }
            } finally {
                timerLock.unlock();
            }
            begin(b, idFrom, idTo);
            put(RESULT);
            put(TEXT_BLOCK_OPEN);
            put(ascii("\"{\\\"pending\\\":" + pendingNow + ",\\\"maxPending\\\":" + maxPendingNow + "}\""));
            put(TEXT_BLOCK_CLOSE);
        } else {
            error(b, idFrom, idTo, -32602, "Unknown tool");
        }
    }

    private void error(byte[] b, int idFrom, int idTo, int code, String message) {
        if (b == null) {
            put(ascii("{\"jsonrpc\":\"2.0\",\"id\":null"));
        } else {
            begin(b, idFrom, idTo);
        }
        put(ERROR);
        put(ascii(code + ",\"message\":\"" + message + "\"}}\n"));
    }

    /** Finds the value of a member of the object spanning [from, to); null if absent or not an object. */
    private static int[] member(byte[] b, int from, int to, String key) {
        Scanner s = new Scanner(b, from, to);
        s.ws();
        if (s.peek() != '{') {
            return null;
        }
        s.pos++;
        s.ws();
        if (s.peek() == '}') {
            return null;
        }
        while (true) {
            s.ws();
            int kFrom = s.pos;
            s.skipString();
            int kTo = s.pos;
            s.ws();
            s.expect(':');
            s.ws();
            int vFrom = s.pos;
            s.skipValue();
            if (s.keyIs(kFrom, kTo, key)) {
                return new int[] {vFrom, s.pos};
            }
            s.ws();
            if (s.peek() != ',') {
                return null;
            }
            s.pos++;
        }
    }

    private static long parseLong(byte[] b, int from, int to) {
        if (from >= to) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    // ---- output; outLock held ----

    private void begin(byte[] b, int idFrom, int idTo) {
        put(JSONRPC_ID);
        put(b, idFrom, idTo);
    }

    private void put(byte[] bytes) {
        put(bytes, 0, bytes.length);
    }

    private void put(byte[] bytes, int from, int to) {
        int n = to - from;
        if (olen + n > obuf.length) {
            obuf = Arrays.copyOf(obuf, Math.max(obuf.length * 2, olen + n));
        }
        System.arraycopy(bytes, from, obuf, olen, n);
        olen += n;
    }

    private void flushLocked() throws IOException {
        if (olen > 0) {
            out.write(obuf, 0, olen);
            olen = 0;
        }
    }

    // ---- the timer for sleep ----

    private void schedule(long deadline, byte[] answer) {
        timerLock.lock();
        try {
            Due due = new Due(deadline, timerSeq++, answer);
            timer.add(due);
            maxPending = Math.max(maxPending, timer.size());
            if (timer.peek() == due) {
                timerChanged.signal();
            }
        } finally {
            timerLock.unlock();
        }
    }

    private void timerLoop() {
        byte[][] batch = new byte[64][];
        try {
            while (true) {
                int n = 0;
                timerLock.lock();
                try {
                    while (n == 0) {
                        Due head = timer.peek();
                        long now = System.nanoTime();
                        if (head == null) {
                            timerChanged.await();
                        } else if (head.deadline - now > 0) {
                            timerChanged.awaitNanos(head.deadline - now);
                        } else {
                            while (head != null && head.deadline - now <= 0) {
                                if (n == batch.length) {
                                    batch = Arrays.copyOf(batch, n * 2);
                                }
                                batch[n++] = timer.poll().answer;
                                head = timer.peek();
                            }
                        }
                    }
                } finally {
                    timerLock.unlock();
                }
                outLock.lock();
                try {
                    for (int i = 0; i < n; i++) {
                        put(batch[i]);
                        batch[i] = null;
                    }
                    flushLocked();
                } finally {
                    outLock.unlock();
                }
            }
        } catch (InterruptedException | IOException e) {
            System.exit(1);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Scans JSON tokens in place; throws IllegalArgumentException on malformed input. */
    private static final class Scanner {
        final byte[] b;
        final int end;
        int pos;

        Scanner(byte[] b, int from, int to) {
            this.b = b;
            this.pos = from;
            this.end = to;
        }

        int peek() {
            if (pos >= end) {
                throw new IllegalArgumentException("unexpected end");
            }
            return b[pos];
        }

        void ws() {
            while (pos < end && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\r' || b[pos] == '\n')) {
                pos++;
            }
        }

        void expect(char c) {
            if (peek() != c) {
                throw new IllegalArgumentException("expected " + c);
            }
            pos++;
        }

        void skipString() {
            expect('"');
            while (true) {
                int c = peek();
                pos++;
                if (c == '"') {
                    return;
                }
                if (c == '\\') {
                    peek();
                    pos++;
                }
            }
        }

        void skipValue() {
            int c = peek();
            if (c == '"') {
                skipString();
            } else if (c == '{' || c == '[') {
                int depth = 0;
                while (true) {
                    c = peek();
                    if (c == '"') {
                        skipString();
                        continue;
                    }
                    pos++;
                    if (c == '{' || c == '[') {
                        depth++;
                    } else if (c == '}' || c == ']') {
                        if (--depth == 0) {
                            return;
                        }
                    }
                }
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

        /** Whether the raw string token [from, to) (quotes included, no escapes) is the given ASCII key. */
        boolean keyIs(int from, int to, String key) {
            return valueIs(from, to, key);
        }

        boolean valueIs(int from, int to, String s) {
            int n = s.length();
            if (to - from != n + 2 || b[from] != '"') {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (b[from + 1 + i] != s.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }
}
