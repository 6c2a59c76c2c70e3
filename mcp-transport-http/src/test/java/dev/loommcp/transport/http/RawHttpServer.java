package dev.loommcp.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal HTTP/1.1 server on 127.0.0.1 that records each request's head exactly as the bytes arrived (to check
 * header encoding on the wire, which a parsing server would normalize) and answers every request with a JSON-RPC
 * result echoing the request's id, closing the connection after each answer.
 */
final class RawHttpServer implements AutoCloseable {

    /** One request: its head as received (ISO-8859-1, CRLFs kept) and its body. */
    record Raw(String head, String body) {
    }

    private final ServerSocket socket;
    private final Thread acceptor;
    final LinkedBlockingQueue<Raw> requests = new LinkedBlockingQueue<>();

    /** What to answer a request with a JSON-RPC id: the whole response, head and body; null for the default. */
    private final java.util.function.Function<Object, byte[]> answer;

    RawHttpServer() throws IOException {
        this(null);
    }

    /**
     * @param answer the raw bytes to answer each request that has an id with (a broken answer, for fault tests); the
     *               connection is closed after them
     */
    RawHttpServer(java.util.function.Function<Object, byte[]> answer) throws IOException {
        this.answer = answer;
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().name("raw-http-server").start(this::serve);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    Raw next() throws InterruptedException {
        Raw r = requests.poll(20, TimeUnit.SECONDS);
        if (r == null) {
            throw new AssertionError("no request arrived");
        }
        return r;
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                s.setSoTimeout(10_000);
                handle(s);
            } catch (IOException e) {
                // closed, or the client went away
            }
        }
    }

    private void handle(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            head.write(c);
            int n = head.size();
            byte[] b = head.toByteArray();
            if (n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n') {
                break;
            }
        }
        String headText = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : headText.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        requests.add(new Raw(headText, body));
        Object id = body.isEmpty() ? null
                : ((java.util.Map<?, ?>) dev.loommcp.internal.json.Json.read(body)).get("id");
        if (id != null && answer != null) {
            s.getOutputStream().write(answer.apply(id));
            s.getOutputStream().flush();
            return;
        }
        String json = id == null ? "" : TestServer.result(id, "{}");
        byte[] payload = json.getBytes(StandardCharsets.UTF_8);
        String status = id == null ? "202 Accepted" : "200 OK";
        OutputStream out = s.getOutputStream();
        out.write(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + payload.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(payload);
        out.flush();
    }

    @Override
    public void close() throws Exception {
        socket.close();
        acceptor.join(5_000);
    }
}
