package dev.loommcp.auth.internal;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A token endpoint for tests: JDK HTTP server on 127.0.0.1, ephemeral port, answering every request with a scripted
 * function and recording what came in (method, path, headers, the raw and the decoded form body).
 */
final class TokenServer implements AutoCloseable {

    /** One request as it arrived. */
    record Req(String method, String path, Headers headers, String rawBody, Map<String, String> form,
               boolean duplicateParams) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** One scripted answer. */
    record Answer(int status, Map<String, String> headers, String body) {
        static Answer json(int status, String body) {
            return new Answer(status, Map.of(), body);
        }

        static Answer ok(String body) {
            return json(200, body);
        }
    }

    private final HttpServer server;
    final List<Req> requests = new CopyOnWriteArrayList<>();
    private volatile Function<Req, Answer> handler = r -> Answer.ok("{\"access_token\":\"at\",\"token_type\":\"Bearer\"}");

    TokenServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** @return the URI of a path on this server */
    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** Sets how requests are answered. */
    TokenServer answer(Function<Req, Answer> h) {
        this.handler = h;
        return this;
    }

    /** @return the only request received (fails otherwise) */
    Req only() {
        if (requests.size() != 1) {
            throw new AssertionError("expected one request, got " + requests.size());
        }
        return requests.get(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String raw = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> form = new LinkedHashMap<>();
            boolean dup = false;
            if (!raw.isEmpty()) {
                for (String part : raw.split("&")) {
                    int eq = part.indexOf('=');
                    String k = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
                    String v = eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
                    dup |= form.put(k, v) != null;
                }
            }
            Req req = new Req(ex.getRequestMethod(), ex.getRequestURI().getPath(), ex.getRequestHeaders(), raw, form,
                    dup);
            requests.add(req);
            Answer a = handler.apply(req);
            a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            if (!a.headers().containsKey("Content-Type")) {
                ex.getResponseHeaders().add("Content-Type", "application/json");
            }
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
