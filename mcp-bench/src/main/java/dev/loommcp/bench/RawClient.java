package dev.loommcp.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The limit: JSON-RPC lines written and read directly on the process's pipes with Jackson 3, an id to
 * {@link CompletableFuture} map and one platform reader thread; no SDK, no session machinery, no timeouts other than
 * the wait itself. What a careful hand-rolled client costs, and so the bar the SDKs are measured against.
 *
 * <p>Variants, not in the default set ({@code --clients raw,raw-queued,raw-vreader,raw-queued-vreader}), each
 * changing one design choice so that its cost can be measured on its own: {@code -queued}: callers hand their
 * encoded line to a writer virtual thread through a {@link LinkedBlockingQueue}, which writes whatever is queued and
 * flushes once (the way loom-mcp's stdio transport writes what it cannot write directly); {@code -vreader}: the
 * reader is a virtual thread instead of a platform thread (loom-mcp's once was; a pipe read holds its carrier).
 * {@code raw-queued-vreader} has the thread layout loom-mcp had before it, with the raw loop's JSON handling. {@code raw-modern} speaks the modern era (MCP 2026-07-28) the same way: {@code server/discover}
 * instead of {@code initialize}, and the per-request {@code _meta} envelope (protocol version, client capabilities,
 * client info) on every request, built once and reused.
 */
final class RawClient implements BenchClient {

    private static final byte[] POISON = new byte[0];

    private static final long TIMEOUT_SECONDS = 60;

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final ConcurrentHashMap<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final ReentrantLock writeLock = new ReentrantLock();
    private Process process;
    private OutputStream out;
    private Thread reader;
    private final boolean queued;
    private final boolean virtualReader;
    private final LinkedBlockingQueue<byte[]> outQueue = new LinkedBlockingQueue<>();
    private Thread writer;

    private final boolean modern;
    /** The modern era's per-request envelope, shared by every request (never changed after start). */
    private ObjectNode meta;

    RawClient(boolean queued, boolean virtualReader) {
        this(queued, virtualReader, false);
    }

    RawClient(boolean queued, boolean virtualReader, boolean modern) {
        this.queued = queued;
        this.virtualReader = virtualReader;
        this.modern = modern;
    }

    @Override
    public String name() {
        return "raw" + (queued ? "-queued" : "") + (virtualReader ? "-vreader" : "") + (modern ? "-modern" : "");
    }

    /** The legacy era's {@code initialize} params: version 2025-06-18, no capabilities, the client's name. */
    static ObjectNode initializeParams(JsonMapper mapper, String clientName) {
        ObjectNode params = mapper.createObjectNode();
        params.put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", clientName).put("version", "1.0");
        return params;
    }

    /**
     * The modern era's {@code _meta} envelope of every request: protocol version, (no) client capabilities and client
     * info.
     */
    static ObjectNode modernMeta(JsonMapper mapper, String clientName) {
        ObjectNode meta = mapper.createObjectNode();
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", clientName).put("version", "1.0");
        return meta;
    }

    @Override
    public void start(List<String> serverArgv) throws Exception {
        process = new ProcessBuilder(serverArgv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = process.getOutputStream(); // already buffered by the JDK; flushed per message
        InputStream in = process.getInputStream();
        reader = (virtualReader ? Thread.ofVirtual() : Thread.ofPlatform().daemon()).name("raw-reader")
                .start(() -> readLoop(in));
        if (queued) {
            writer = Thread.ofVirtual().name("raw-writer").start(this::writeLoop);
        }
        if (modern) {
            meta = modernMeta(mapper, "raw-loop");
            ObjectNode params = mapper.createObjectNode();
            params.set("_meta", meta);
            JsonNode discovered = call("server/discover", params);
            if (!discovered.has("supportedVersions")) {
                throw new IOException("server/discover answered without supportedVersions");
            }
            return;
        }
        call("initialize", initializeParams(mapper, "raw-loop"));
        ObjectNode initialized = mapper.createObjectNode();
        initialized.put("jsonrpc", "2.0");
        initialized.put("method", "notifications/initialized");
        send(initialized);
    }

    @Override
    public String echo(String text) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", "echo");
        params.putObject("arguments").put("text", text);
        return firstText(call("tools/call", withMeta(params)));
    }

    @Override
    public String sleep(int ms) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", "sleep");
        params.putObject("arguments").put("ms", ms);
        return firstText(call("tools/call", withMeta(params)));
    }

    @Override
    public String callTool(String tool, Map<String, Object> arguments) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", tool);
        params.set("arguments", mapper.valueToTree(arguments));
        return firstText(call("tools/call", withMeta(params)));
    }

    /** Adds the modern envelope in the modern era. */
    private ObjectNode withMeta(ObjectNode params) {
        if (modern) {
            params.set("_meta", meta);
        }
        return params;
    }

    private String firstText(JsonNode result) throws IOException {
        if (modern && !"complete".equals(result.path("resultType").asString(""))) {
            throw new IOException("a modern result that is not complete");
        }
        return result.get("content").get(0).get("text").asString();
    }

    private JsonNode call(String method, ObjectNode params) throws Exception {
        long id = ids.incrementAndGet();
        ObjectNode request = mapper.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", id);
        request.put("method", method);
        request.set("params", params);
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        JsonNode response;
        try {
            send(request);
            response = answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException(method + " #" + id + " failed", e.getCause());
        } finally {
            pending.remove(id);
        }
        JsonNode error = response.get("error");
        if (error != null) {
            throw new IOException(method + " #" + id + " answered error " + error.get("code"));
        }
        return response.get("result");
    }

    private void send(ObjectNode message) throws IOException {
        byte[] bytes = mapper.writeValueAsBytes(message);
        if (queued) {
            outQueue.add(bytes);
            return;
        }
        writeLock.lock();
        try {
            out.write(bytes);
            out.write('\n');
            out.flush();
        } finally {
            writeLock.unlock();
        }
    }

    private void writeLoop() {
        List<byte[]> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(outQueue.take());
                outQueue.drainTo(batch);
                for (byte[] b : batch) {
                    if (b == POISON) {
                        out.flush();
                        return;
                    }
                    out.write(b);
                    out.write('\n');
                }
                out.flush();
                batch.clear();
            }
        } catch (InterruptedException | IOException e) {
            failAll(e);
        }
    }

    private void readLoop(InputStream in) {
        byte[] buf = new byte[1 << 16];
        int start = 0;
        int end = 0;
        try {
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
                    break;
                }
                int scan = end;
                end += n;
                for (int i = scan; i < end; i++) {
                    if (buf[i] == '\n') {
                        if (i > start) {
                            dispatch(mapper.readTree(buf, start, i - start));
                        }
                        start = i + 1;
                    }
                }
                if (start == end) {
                    start = 0;
                    end = 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            failAll(e);
            return;
        }
        failAll(new IOException("server closed its stdout"));
    }

    private void dispatch(JsonNode message) {
        JsonNode id = message.get("id");
        if (id == null || !id.isNumber() || message.has("method")) {
            return; // notifications and server requests: none expected from the echo server
        }
        CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
        if (answer != null) {
            answer.complete(message);
        }
    }

    private void failAll(Throwable cause) {
        for (Map.Entry<Long, CompletableFuture<JsonNode>> e : pending.entrySet()) {
            e.getValue().completeExceptionally(cause);
        }
    }

    @Override
    public void close() throws Exception {
        if (process == null) {
            return;
        }
        if (queued) {
            outQueue.add(POISON);
            writer.join(TimeUnit.SECONDS.toMillis(5));
        }
        try {
            out.close();
        } catch (IOException ignored) {
            // the server is gone already
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
    }
}
