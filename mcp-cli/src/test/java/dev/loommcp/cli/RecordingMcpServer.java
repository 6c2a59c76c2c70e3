package dev.loommcp.cli;

import dev.loommcp.internal.json.Json;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A tiny Streamable HTTP MCP server on a loopback port that records every request it receives ({@code POST}
 * method names, {@code DELETE} with its session id): it answers {@code initialize} (session {@value #SESSION},
 * capability {@code tools}), accepts notifications with 202, answers other requests with an empty result, refuses
 * {@code GET} with 405 and never answers {@code tools/call}, which stays pending until the client gives up, unless
 * the server was made with answers: a method with an answer gets the result the answer computes from the request's
 * params. For tests that must see what a client sends on the wire. Thread-safe; {@link #close()} ends every
 * connection and thread.
 */
final class RecordingMcpServer implements AutoCloseable {

    /** The session id the server hands out. */
    static final String SESSION = "rec-session-1";

    private final ServerSocket socket;
    private final Thread acceptor;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final List<Thread> handlers = new CopyOnWriteArrayList<>();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> messages = new CopyOnWriteArrayList<>();
    private final Map<String, Function<Map<String, Object>, Object>> answers;
    /** Counted down when a {@code tools/call} arrives. */
    final CountDownLatch callArrived = new CountDownLatch(1);
    /** Counted down when a {@code DELETE} of the session arrives. */
    final CountDownLatch deleteArrived = new CountDownLatch(1);
    /** Counted down when a {@code notifications/cancelled} arrives. */
    final CountDownLatch cancelArrived = new CountDownLatch(1);
    /** When set, {@code notifications/cancelled} and the session {@code DELETE} are recorded but never answered. */
    volatile boolean holdClosing;

    RecordingMcpServer() throws IOException {
        this(Map.of());
    }

    /**
     * Starts a server that answers the given methods (besides {@code initialize}) with the result each function
     * computes from the request's params (an empty map when it had none).
     */
    RecordingMcpServer(Map<String, Function<Map<String, Object>, Object>> answers) throws IOException {
        this.answers = Map.copyOf(answers);
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().name("test-recording-mcp-accept").start(this::acceptLoop);
    }

    /** The MCP endpoint. */
    String endpoint() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/mcp";
    }

    /** What arrived, in order: {@code POST method} or {@code DELETE session}. */
    List<String> received() {
        return List.copyOf(received);
    }

    /** The JSON-RPC messages received, in order. */
    List<Map<String, Object>> messages() {
        return List.copyOf(messages);
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                connections.add(s);
                handlers.add(Thread.ofPlatform().name("test-recording-mcp-conn").start(() -> serve(s)));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream()) {
            while (true) {
                String requestLine = line(in);
                if (requestLine == null || requestLine.isEmpty()) {
                    return;
                }
                String method = requestLine.split(" ")[0];
                int length = 0;
                boolean chunked = false;
                String session = null;
                for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
                    String lower = h.toLowerCase(Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        length = Integer.parseInt(h.substring(15).strip());
                    } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                        chunked = true;
                    } else if (lower.startsWith("mcp-session-id:")) {
                        session = h.substring(15).strip();
                    }
                }
                byte[] body = chunked ? chunked(in) : in.readNBytes(length);
                switch (method) {
                    case "POST" -> {
                        if (!post(body, out)) {
                            // tools/call: never answered; wait until the client closes the connection
                            while (in.read() >= 0) {
                                // discard
                            }
                            return;
                        }
                    }
                    case "DELETE" -> {
                        received.add("DELETE " + session);
                        deleteArrived.countDown();
                        if (holdClosing) {
                            while (in.read() >= 0) {
                                // held: wait until the client closes the connection
                            }
                            return;
                        }
                        respond(out, "200 OK", null, "");
                    }
                    default -> respond(out, "405 Method Not Allowed", null, "");
                }
            }
        } catch (IOException | RuntimeException e) {
            // the connection ended
        } finally {
            connections.remove(s);
        }
    }

    /** Handles one POST; returns false for a request that is deliberately never answered. */
    @SuppressWarnings("unchecked")
    private boolean post(byte[] body, OutputStream out) throws IOException {
        Map<String, Object> msg = (Map<String, Object>) Json.read(new String(body, StandardCharsets.UTF_8));
        messages.add(msg);
        String m = String.valueOf(msg.get("method"));
        received.add("POST " + m);
        Object id = msg.get("id");
        if (id == null) {
            if (m.equals("notifications/cancelled")) {
                cancelArrived.countDown();
                if (holdClosing) {
                    return false; // held like tools/call
                }
            }
            respond(out, "202 Accepted", null, "");
            return true;
        }
        Map<String, Object> params = msg.get("params") instanceof Map<?, ?> p ? (Map<String, Object>) p : Map.of();
        if (m.equals("tools/call")) {
            callArrived.countDown();
            if (!answers.containsKey(m)) {
                return false;
            }
        }
        Object result = answers.containsKey(m) ? answers.get(m).apply(params) : Map.of();
        if (m.equals("initialize")) {
            result = Map.of("protocolVersion", params.get("protocolVersion"), "capabilities", Map.of("tools", Map.of()),
                    "serverInfo", Map.of("name", "recording", "version", "1"));
        }
        respond(out, "200 OK", "application/json", Json.write(Map.of("jsonrpc", "2.0", "id", id, "result", result)));
        return true;
    }

    private static void respond(OutputStream out, String status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + "\r\n" + (type == null ? "" : "Content-Type: " + type + "\r\n")
                + "Mcp-Session-Id: " + SESSION + "\r\nContent-Length: " + b.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(b);
        out.flush();
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return null;
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            int n = size == null ? 0 : Integer.parseInt(size.split(";")[0].strip(), 16);
            if (n == 0) {
                line(in);
                return b.toByteArray();
            }
            b.write(in.readNBytes(n));
            line(in);
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket s : new ArrayList<>(connections)) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
        acceptor.join(TimeUnit.SECONDS.toMillis(10));
        for (Thread t : handlers) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
