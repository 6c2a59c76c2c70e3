package dev.loommcp.transport.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scriptable in-process HTTP server on 127.0.0.1 (com.sun.net.httpserver): each test installs a handler; every
 * request is recorded (method, path and query, headers, body, arrival time).
 */
final class TestServer implements AutoCloseable {

    /** One recorded request. */
    record Req(String method, URI uri, Map<String, List<String>> headers, String body, long nanos) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }

        /** The JSON-RPC method in the body, or null. */
        String rpcMethod() {
            if (body == null || body.isEmpty()) {
                return null;
            }
            Object tree = dev.loommcp.internal.json.Json.read(body);
            return tree instanceof Map<?, ?> m && m.get("method") instanceof String s ? s : null;
        }

        Object rpcId() {
            Object tree = dev.loommcp.internal.json.Json.read(body);
            return tree instanceof Map<?, ?> m ? m.get("id") : null;
        }
    }

    /** Handles one exchange; the request body was already read into {@code req}. */
    @FunctionalInterface
    interface Handler {
        void handle(Req req, HttpExchange ex) throws Exception;
    }

    private final HttpServer server;
    private final String scheme;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    final List<Req> requests = new CopyOnWriteArrayList<>();
    final LinkedBlockingQueue<Req> arrivals = new LinkedBlockingQueue<>();
    final AtomicInteger open = new AtomicInteger();
    final List<String> peers = new CopyOnWriteArrayList<>();
    private volatile Handler handler = (r, ex) -> json(ex, 404, "{}");

    TestServer() throws IOException {
        this(null);
    }

    /** An HTTPS server when {@code tls} is given: it requires a client certificate. */
    TestServer(javax.net.ssl.SSLContext tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 0);
        } else {
            com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls) {
                @Override
                public void configure(com.sun.net.httpserver.HttpsParameters params) {
                    javax.net.ssl.SSLParameters p = tls.getDefaultSSLParameters();
                    p.setNeedClientAuth(true);
                    params.setSSLParameters(p);
                }
            });
            server = https;
        }
        scheme = tls == null ? "http" : "https";
        server.setExecutor(executor);
        server.createContext("/", ex -> {
            open.incrementAndGet();
            try {
                String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                if (ex instanceof com.sun.net.httpserver.HttpsExchange hx) {
                    peers.add(hx.getSSLSession().getPeerPrincipal().getName());
                }
                Req req = new Req(ex.getRequestMethod(), ex.getRequestURI(), Map.copyOf(ex.getRequestHeaders()), body,
                        System.nanoTime());
                requests.add(req);
                arrivals.add(req);
                handler.handle(req, ex);
            } catch (IOException | InterruptedException e) {
                // the client went away, or the server is stopping
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                open.decrementAndGet();
                ex.close();
            }
        });
        server.start();
    }

    void handler(Handler h) {
        this.handler = h;
    }

    URI uri(String path) {
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    int port() {
        return server.getAddress().getPort();
    }

    Req nextRequest() throws InterruptedException {
        Req r = arrivals.poll(20, TimeUnit.SECONDS);
        if (r == null) {
            throw new AssertionError("no request arrived");
        }
        return r;
    }

    List<Req> requests(String method) {
        return requests.stream().filter(r -> r.method().equals(method)).toList();
    }

    static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        }
    }

    static void status(HttpExchange ex, int status) throws IOException {
        ex.sendResponseHeaders(status, -1);
    }

    /** Starts an SSE response (chunked) and returns its stream. */
    static OutputStream sse(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        return ex.getResponseBody();
    }

    static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static String result(Object id, String resultJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"result\":" + resultJson + "}";
    }

    static String idJson(Object id) {
        return id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
