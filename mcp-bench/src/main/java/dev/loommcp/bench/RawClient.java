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
 * flushes once (the way loom-mcp's stdio transport writes); {@code -vreader}: the reader is a virtual thread instead
 * of a platform thread (as loom-mcp's is). {@code raw-queued-vreader} has loom-mcp's thread layout with the raw
 * loop's JSON handling.
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

    RawClient(boolean queued, boolean virtualReader) {
        this.queued = queued;
        this.virtualReader = virtualReader;
    }

    @Override
    public String name() {
        return "raw" + (queued ? "-queued" : "") + (virtualReader ? "-vreader" : "");
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
        ObjectNode params = mapper.createObjectNode();
        params.put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "raw-loop").put("version", "1.0");
        call("initialize", params);
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
        return firstText(call("tools/call", params));
    }

    @Override
    public String sleep(int ms) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", "sleep");
        params.putObject("arguments").put("ms", ms);
        return firstText(call("tools/call", params));
    }

    @Override
    public String callTool(String tool, Map<String, Object> arguments) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", tool);
        params.set("arguments", mapper.valueToTree(arguments));
        return firstText(call("tools/call", params));
    }

    private static String firstText(JsonNode result) {
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
