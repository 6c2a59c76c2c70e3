package dev.loommcp.transport.unix;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A scriptable HTTP/1.1 server on a unix socket, for what the reference servers cannot be made to do (break a
 * response stream to test resumption, never answer): reads each request (head and Content-Length body), records it,
 * lets the script write the raw answer and closes the connection after it. Its threads are platform threads named
 * {@code script-server-*}; {@link #close()} ends them.
 */
final class ScriptServer implements AutoCloseable {

    /** One request as received. */
    record Req(String method, String target, String head, String body) {

        /** The first value of a header, or {@code null}. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /** Writes the answer to one request; the connection closes when it returns. */
    interface Script {
        void answer(Req req, InputStream in, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocketChannel server;
    private final Path socket;
    private final Thread acceptor;
    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
    final List<Req> requests = new CopyOnWriteArrayList<>();
    /** Counted down each time a connection's client went away while its answer was held open. */
    final CountDownLatch clientGone = new CountDownLatch(1);
    private volatile Script script;

    ScriptServer(Path socket, Script script) throws IOException {
        this.socket = socket;
        this.script = script;
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        acceptor = Thread.ofPlatform().daemon().name("script-server-accept").start(this::accept);
    }

    void script(Script s) {
        this.script = s;
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel ch = server.accept();
                open.add(ch);
                workers.add(Thread.ofPlatform().daemon().name("script-server-conn").start(() -> serve(ch)));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(SocketChannel ch) {
        try (ch; InputStream in = Channels.newInputStream(ch); OutputStream out = Channels.newOutputStream(ch)) {
            Req req = read(in);
            if (req == null) {
                return;
            }
            requests.add(req);
            script.answer(req, in, out);
            out.flush();
        } catch (IOException | InterruptedException e) {
            // the client went away, or the server closes
        } finally {
            open.remove(ch);
        }
    }

    /** Holds an answer open until the client closes the connection, then counts {@link #clientGone} down. */
    void holdUntilClientCloses(InputStream in) throws IOException {
        while (in.read() >= 0) {
            // the client sends nothing more on this connection; end of stream is its closing
        }
        clientGone.countDown();
    }

    private static Req read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
                    ? state + 1 : 0;
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        String[] first = h.substring(0, h.indexOf("\r\n")).split(" ");
        Req probe = new Req(first[0], first[1], h, "");
        String length = probe.header("Content-Length");
        byte[] body = length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
        return new Req(first[0], first[1], h, new String(body, StandardCharsets.UTF_8));
    }

    /** The requests with the given method, in order. */
    List<Req> requests(String method) {
        return requests.stream().filter(r -> r.method().equals(method.toUpperCase(Locale.ROOT))).toList();
    }

    /** Writes a complete answer with a body. */
    static void answer(OutputStream out, int status, String contentType, String body, String... headers)
            throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " S\r\nConnection: close\r\n");
        if (contentType != null) {
            sb.append("Content-Type: ").append(contentType).append("\r\n");
        }
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        sb.append("Content-Length: ").append(b.length).append("\r\n\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(b);
        out.flush();
    }

    /** Starts an SSE answer (no length: the stream ends when the connection closes). */
    static void startSse(OutputStream out, String... headers) throws IOException {
        StringBuilder sb = new StringBuilder("HTTP/1.1 200 OK\r\nConnection: close\r\n"
                + "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        sb.append("\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Writes SSE text. */
    static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        for (SocketChannel ch : open) {
            ch.close();
        }
        acceptor.join(5_000);
        for (Thread t : workers) {
            t.interrupt();
            t.join(5_000);
        }
        Files.deleteIfExists(socket);
    }
}
