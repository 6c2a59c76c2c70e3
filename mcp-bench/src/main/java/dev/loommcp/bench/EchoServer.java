package dev.loommcp.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * <p>How it stays cheap: one reader thread reads stdin in 64 KiB chunks and reads each line in place, in one pass
 * over its bytes (no JSON tree, no strings: the request id and the echoed text are copied to the answer as the raw
 * JSON tokens they were; the members it needs, in {@code params}, {@code arguments} and {@code _meta}, are found
 * while passing over them, never looked up again; line ends and string contents are scanned eight bytes at a time);
 * the constant parts of every answer, the modern era's tail included, are prebuilt bytes; answers are
 * appended to one buffer and written with one {@code write} per chunk read, so a burst of requests costs one system
 * call. Answers to {@code sleep} are kept in a queue ordered by deadline and every answer due at once is written with
 * one call too. Only JDK classes are used, so the JVM starts fast.
 *
 * <p>With {@code --dual} it serves both protocol eras, like the TypeScript SDK's dual-era servers: it also answers
 * {@code server/discover} (MCP 2026-07-28), and a request that carries the modern envelope
 * ({@code _meta["io.modelcontextprotocol/protocolVersion"]} in its params) gets a result with
 * {@code "resultType":"complete"} and {@code _meta["io.modelcontextprotocol/serverInfo"]} (as the TypeScript SDK's
 * servers send on every result); a request without it is served as before (legacy). With {@code --http} it serves
 * Streamable HTTP instead of stdio, stateless (no session: one POST per message, the answer as one JSON body, 202 for
 * a notification, 405 for GET and DELETE), on 127.0.0.1 and an ephemeral port, which it prints as
 * {@code LISTENING <port>} on stdout; a modern request must carry the {@code MCP-Protocol-Version} and
 * {@code Mcp-Method} headers (else 400, {@code -32020}). It ends when its stdin ends. Over HTTP a {@code sleep} call
 * holds its own (virtual) thread for the time asked.
 */
public final class EchoServer {

    private static final byte[] JSONRPC_ID = ascii("{\"jsonrpc\":\"2.0\",\"id\":");
    private static final byte[] RESULT = ascii(",\"result\":");
    private static final byte[] ERROR = ascii(",\"error\":{\"code\":");
    /** What an answer with one text block holds between its id and the text. */
    private static final byte[] RESULT_TEXT_BLOCK_OPEN =
            ascii(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    private static final byte[] TEXT_BLOCK_CLOSE = ascii("}]}}\n");
    /**
     * What a modern result ends with: {@code resultType} and, as the TypeScript SDK's servers send on every result,
     * the server's identity in {@code _meta}.
     */
    private static final String MODERN_TAIL = ",\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/"
            + "serverInfo\":{\"name\":\"loom-mcp-bench-echo\",\"version\":\"1.0\"}}}}\n";
    private static final byte[] TEXT_BLOCK_CLOSE_MODERN = ascii("}]" + MODERN_TAIL);
    private static final byte[] EMPTY_RESULT = ascii("{}}\n");
    private static final byte[] DISCOVER = ascii("{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":"
            + "{\"tools\":{}},\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"_meta\":"
            + "{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"loom-mcp-bench-echo\",\"version\":\"1.0\"}}}}\n");
    private static final byte[] TOOLS = ascii("{\"tools\":["
            + "{\"name\":\"echo\",\"description\":\"Returns its text argument\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}},"
            + "{\"name\":\"sleep\",\"description\":\"Answers after ms milliseconds\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"ms\"]}}"
            + "]");
    private static final byte[] TOOLS_CLOSE = ascii("}}\n");
    private static final byte[] TOOLS_CLOSE_MODERN = ascii(MODERN_TAIL);
    private static final String DEFAULT_VERSION = "\"2025-06-18\"";

    private static final byte[] TOOLS_CALL = ascii("tools/call");
    private static final byte[] TOOLS_LIST = ascii("tools/list");
    private static final byte[] PING = ascii("ping");
    private static final byte[] INITIALIZE = ascii("initialize");
    private static final byte[] DISCOVER_METHOD = ascii("server/discover");
    private static final byte[] ECHO = ascii("echo");
    private static final byte[] SLEEP = ascii("sleep");
    private static final byte[] STATS = ascii("stats");

    private final OutputStream out;
    private final ReentrantLock outLock = new ReentrantLock();
    /** What goes to stdout next (guarded by {@link #outLock}). */
    private final Sink stdout = new Sink();
    /** Whether {@code server/discover} and the modern envelope are served ({@code --dual}). */
    private final boolean dual;
    /** Over HTTP, answer every request as an SSE stream of one event instead of one JSON body. */
    private boolean sse;

    private final ReentrantLock timerLock = new ReentrantLock();
    private final Condition timerChanged = timerLock.newCondition();
    private final PriorityQueue<Due> timer = new PriorityQueue<>();
    private long timerSeq;
    private long maxPending;
    /** HTTP {@code sleep} calls holding their thread now (guarded by {@link #timerLock}). */
    private long httpPending;

    /** An answer being assembled: appended to, then written (stdio) or sent as a body (HTTP). */
    private static final class Sink {
        byte[] buf = new byte[1 << 12];
        int len;
    }

    private record Due(long deadline, long seq, byte[] answer) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private EchoServer(OutputStream out, boolean dual) {
        this.out = out;
        this.dual = dual;
        stdout.buf = new byte[1 << 16];
    }

    /**
     * Runs the server on this process's stdin and stdout until stdin ends, or with {@code --http} on HTTP until stdin
     * ends.
     *
     * @param args {@code --dual} (serve the modern era too), {@code --http} (serve HTTP, not stdio), {@code --sse}
     *             (with {@code --http}: answer each request as a {@code text/event-stream} of one event)
     * @throws IOException if stdout fails or the HTTP server cannot start
     */
    public static void main(String[] args) throws IOException {
        List<String> options = List.of(args);
        for (String a : options) {
            if (!a.equals("--dual") && !a.equals("--http") && !a.equals("--sse")) {
                throw new IllegalArgumentException("unknown argument " + a + "; known: --dual, --http, --sse");
            }
        }
        EchoServer server = new EchoServer(new FileOutputStream(FileDescriptor.out), options.contains("--dual"));
        server.sse = options.contains("--sse");
        if (options.contains("--http")) {
            server.serveHttp();
            System.exit(0);
        }
        Thread timerThread = new Thread(server::timerLoop, "echo-timer");
        timerThread.setDaemon(true);
        timerThread.start();
        server.readLoop(new FileInputStream(FileDescriptor.in));
        System.exit(0);
    }

    // ---- HTTP ----

    /** Serves HTTP on 127.0.0.1 and an ephemeral port (printed as LISTENING port) until stdin ends. */
    private void serveHttp() throws IOException {
        // without TCP_NODELAY the JDK server's separate writes of head and body meet the client's delayed ACK: a
        // round trip would cost tens of milliseconds of waiting instead of microseconds of work
        System.setProperty("sun.net.httpserver.nodelay", "true");
        // the JDK server closes idle connections beyond 200 by default: a client that kept 512 in flight would then
        // reuse closed ones, and a POST on a closed connection fails without a retry
        System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
        // the IPv4 literal the clients are given, not getLoopbackAddress() (::1 in a JVM that prefers IPv6)
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
                0), 4096);
        ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(handlers);
        http.createContext("/mcp", this::exchange);
        http.start();
        out.write(ascii("LISTENING " + http.getAddress().getPort() + "\n"));
        out.flush();
        InputStream in = new FileInputStream(FileDescriptor.in);
        while (in.read(new byte[256]) >= 0) {
            // runs until the harness closes our stdin
        }
        http.stop(0);
        handlers.shutdownNow();
    }

    /** One HTTP exchange: a POST holds one JSON-RPC message. */
    private void exchange(HttpExchange ex) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("POST")) {
                ex.getResponseHeaders().set("Allow", "POST");
                respond(ex, 405, ascii("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                        + "\"message\":\"Method not allowed.\"}}"));
                return;
            }
            byte[] body = ex.getRequestBody().readAllBytes();
            Sink sink = new Sink();
            boolean modern = handle(sink, body, 0, body.length, true);
            if (modern && (ex.getRequestHeaders().getFirst("MCP-Protocol-Version") == null
                    || ex.getRequestHeaders().getFirst("Mcp-Method") == null)) {
                sink.len = 0;
                error(sink, null, 0, 0, -32020, "modern request without MCP-Protocol-Version or Mcp-Method");
                respond(ex, 400, Arrays.copyOf(sink.buf, sink.len - 1));
                return;
            }
            if (sink.len == 0) {
                ex.sendResponseHeaders(202, -1);
                return;
            }
            if (sse) {
                respondEvent(ex, sink);
            } else {
                respond(ex, 200, Arrays.copyOf(sink.buf, sink.len - 1)); // without the line end
            }
        }
    }

    /**
     * The answer as a Streamable HTTP SSE stream of one {@code message} event, chunked (no length, as servers that
     * stream send it), ending after the event.
     */
    private static void respondEvent(HttpExchange ex, Sink sink) throws IOException {
        byte[] head = ascii("event: message\ndata: ");
        byte[] body = new byte[head.length + sink.len + 1];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(sink.buf, 0, body, head.length, sink.len); // ends with the line end
        body[body.length - 1] = '\n';
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        ex.getResponseBody().write(body);
    }

    private static void respond(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
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
                for (int i = EchoMessage.newline(buf, scan, end); i < end; i = EchoMessage.newline(buf, i + 1, end)) {
                    handle(stdout, buf, start, i, false);
                    start = i + 1;
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

    // ---- one request; over stdio called with outLock held ----

    /**
     * Handles one message, appending its answer (if any) to {@code sink}. Over HTTP a {@code sleep} call sleeps on
     * this thread; over stdio its answer is scheduled. The message is read in one pass ({@link EchoMessage}).
     *
     * @return whether it was a request with the modern envelope (answered or not)
     */
    private boolean handle(Sink sink, byte[] b, int from, int to, boolean http) {
        EchoMessage m = new EchoMessage(b, from, to, dual);
        try {
            if (!m.parse()) {
                return false; // blank line
            }
        } catch (IllegalArgumentException e) {
            error(sink, null, 0, 0, -32700, "Parse error");
            return false;
        }
        if (m.methodFrom < 0 || m.idFrom < 0 || (m.idTo - m.idFrom == 4 && b[m.idFrom] == 'n')) {
            return false; // a notification, or a response to us: nothing to answer
        }
        boolean isModern = m.modern;
        if (m.methodIs(TOOLS_CALL)) {
            toolsCall(sink, m, http);
        } else if (m.methodIs(PING) && !isModern) {
            begin(sink, b, m.idFrom, m.idTo);
            put(sink, RESULT);
            put(sink, EMPTY_RESULT);
        } else if (m.methodIs(TOOLS_LIST)) {
            begin(sink, b, m.idFrom, m.idTo);
            put(sink, RESULT);
            put(sink, TOOLS);
            put(sink, isModern ? TOOLS_CLOSE_MODERN : TOOLS_CLOSE);
        } else if (m.methodIs(INITIALIZE)) {
            initialize(sink, m);
        } else if (dual && m.methodIs(DISCOVER_METHOD)) {
            begin(sink, b, m.idFrom, m.idTo);
            put(sink, RESULT);
            put(sink, DISCOVER);
        } else {
            error(sink, b, m.idFrom, m.idTo, -32601, "Method not found");
        }
        return isModern;
    }

    private void initialize(Sink sink, EchoMessage m) {
        byte[] b = m.b;
        String version = DEFAULT_VERSION;
        if (m.versionFrom >= 0 && b[m.versionFrom] == '"') {
            version = new String(b, m.versionFrom, m.versionTo - m.versionFrom, StandardCharsets.UTF_8);
        }
        begin(sink, b, m.idFrom, m.idTo);
        put(sink, RESULT);
        put(sink, ascii("{\"protocolVersion\":" + version + ",\"capabilities\":{\"tools\":{}},"
                + "\"serverInfo\":{\"name\":\"loom-mcp-bench-echo\",\"version\":\"1.0\"}}}\n"));
    }

    private void toolsCall(Sink sink, EchoMessage m, boolean http) {
        byte[] b = m.b;
        int idFrom = m.idFrom;
        int idTo = m.idTo;
        if (m.nameFrom < 0 || b[m.nameFrom] != '"') {
            error(sink, b, idFrom, idTo, -32602, "Invalid params: no tool name");
            return;
        }
        if (m.nameIs(ECHO)) {
            if (m.textFrom < 0 || b[m.textFrom] != '"') {
                error(sink, b, idFrom, idTo, -32602, "Invalid params: echo needs a string text");
                return;
            }
            begin(sink, b, idFrom, idTo);
            put(sink, RESULT_TEXT_BLOCK_OPEN);
            put(sink, b, m.textFrom, m.textTo);
            put(sink, m.modern ? TEXT_BLOCK_CLOSE_MODERN : TEXT_BLOCK_CLOSE);
        } else if (m.nameIs(SLEEP)) {
            long millis = m.msFrom < 0 ? -1 : parseLong(b, m.msFrom, m.msTo);
            if (millis < 0) {
                error(sink, b, idFrom, idTo, -32602, "Invalid params: sleep needs a non-negative integer ms");
                return;
            }
            Sink answer = new Sink();
            begin(answer, b, idFrom, idTo);
            put(answer, RESULT_TEXT_BLOCK_OPEN);
            put(answer, ascii("\"slept " + millis + " ms\""));
            put(answer, m.modern ? TEXT_BLOCK_CLOSE_MODERN : TEXT_BLOCK_CLOSE);
            if (http) {
                sleepHere(millis);
                put(sink, answer.buf, 0, answer.len);
            } else {
                schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis),
                        Arrays.copyOf(answer.buf, answer.len));
            }
        } else if (m.nameIs(STATS)) {
            long pendingNow;
            long maxPendingNow;
            timerLock.lock();
            try {
                pendingNow = timer.size() + httpPending;
                maxPendingNow = maxPending;
                if (m.reset) {
                    maxPending = pendingNow;
                }
            } finally {
                timerLock.unlock();
            }
            begin(sink, b, idFrom, idTo);
            put(sink, RESULT_TEXT_BLOCK_OPEN);
            put(sink, ascii("\"{\\\"pending\\\":" + pendingNow + ",\\\"maxPending\\\":" + maxPendingNow + "}\""));
            put(sink, m.modern ? TEXT_BLOCK_CLOSE_MODERN : TEXT_BLOCK_CLOSE);
        } else {
            error(sink, b, idFrom, idTo, -32602, "Unknown tool");
        }
    }
    private void error(Sink sink, byte[] b, int idFrom, int idTo, int code, String message) {
        if (b == null) {
            put(sink, ascii("{\"jsonrpc\":\"2.0\",\"id\":null"));
        } else {
            begin(sink, b, idFrom, idTo);
        }
        put(sink, ERROR);
        put(sink, ascii(code + ",\"message\":\"" + message + "\"}}\n"));
    }

    /** An HTTP sleep: holds this (virtual) thread, counted as pending for the stats tool. */
    private void sleepHere(long millis) {
        timerLock.lock();
        try {
            httpPending++;
            maxPending = Math.max(maxPending, httpPending);
        } finally {
            timerLock.unlock();
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            timerLock.lock();
            try {
                httpPending--;
            } finally {
                timerLock.unlock();
            }
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

    // ---- output; over stdio with outLock held ----

    private static void begin(Sink sink, byte[] b, int idFrom, int idTo) {
        put(sink, JSONRPC_ID);
        put(sink, b, idFrom, idTo);
    }

    private static void put(Sink sink, byte[] bytes) {
        put(sink, bytes, 0, bytes.length);
    }

    private static void put(Sink sink, byte[] bytes, int from, int to) {
        int n = to - from;
        if (sink.len + n > sink.buf.length) {
            sink.buf = Arrays.copyOf(sink.buf, Math.max(sink.buf.length * 2, sink.len + n));
        }
        System.arraycopy(bytes, from, sink.buf, sink.len, n);
        sink.len += n;
    }

    private void flushLocked() throws IOException {
        if (stdout.len > 0) {
            out.write(stdout.buf, 0, stdout.len);
            stdout.len = 0;
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
                        put(stdout, batch[i]);
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

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
