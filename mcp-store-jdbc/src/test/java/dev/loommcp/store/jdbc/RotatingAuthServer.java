package dev.loommcp.store.jdbc;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A protected resource's metadata and an authorization server on one JDK HTTP server (127.0.0.1, ephemeral port)
 * whose token endpoint rotates refresh tokens and, like servers with reuse detection, revokes the whole family when
 * a refresh token is presented a second time. Counts refreshes and revocations.
 */
final class RotatingAuthServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    final String base;
    final AtomicInteger refreshes = new AtomicInteger();
    final AtomicInteger revocations = new AtomicInteger();
    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final Set<String> used = ConcurrentHashMap.newKeySet();
    private final AtomicInteger serial = new AtomicInteger();

    RotatingAuthServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    URI mcp() {
        return URI.create(base + "/mcp");
    }

    /** Issues a refresh token as if earlier. */
    String issueRefreshToken() {
        String rt = "rt-pre-" + serial.incrementAndGet();
        live.add(rt);
        return rt;
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        switch (path) {
            case "/.well-known/oauth-protected-resource/mcp" -> send(ex, 200, "{\"resource\":\"" + base
                    + "/mcp\",\"authorization_servers\":[\"" + base + "\"]}");
            case "/.well-known/oauth-authorization-server" -> send(ex, 200, "{\"issuer\":\"" + base
                    + "\",\"token_endpoint\":\"" + base + "/token\",\"response_types_supported\":[\"code\"],"
                    + "\"grant_types_supported\":[\"client_credentials\",\"refresh_token\"],"
                    + "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\"]}");
            case "/token" -> token(ex);
            default -> send(ex, 404, "{\"error\":\"not_found\"}");
        }
    }

    private void token(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String rt = null;
        for (String part : body.split("&")) {
            if (part.startsWith("refresh_token=")) {
                rt = java.net.URLDecoder.decode(part.substring("refresh_token=".length()), StandardCharsets.UTF_8);
            }
        }
        if (rt == null) {
            send(ex, 400, "{\"error\":\"unsupported_grant_type\"}");
            return;
        }
        refreshes.incrementAndGet();
        try {
            Thread.sleep(50); // a token endpoint takes a moment: concurrent refreshers really overlap
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!live.remove(rt)) {
            if (used.contains(rt)) {
                revocations.incrementAndGet();
                live.clear(); // the whole family
            }
            send(ex, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        used.add(rt);
        int n = serial.incrementAndGet();
        live.add("rt-" + n);
        send(ex, 200, "{\"access_token\":\"at-" + n + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
                + "\"refresh_token\":\"rt-" + n + "\"}");
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
