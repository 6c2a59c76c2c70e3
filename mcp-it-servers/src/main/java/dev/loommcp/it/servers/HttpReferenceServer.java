package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * server-everything in {@code streamableHttp} mode on a free port of 127.0.0.1 (the loopback-only preload pins it
 * there), for a test class. {@link #close()} ends it and its children.
 */
public final class HttpReferenceServer implements AutoCloseable {

    /** 127.0.0.1, as {@link #endpoint()} names it (getLoopbackAddress() is ::1 when IPv6 is preferred). */
    private static final InetAddress IPV4_LOOPBACK = ipv4Loopback();

    private final Process process;
    private final int port;
    private final Path stderr;

    /**
     * Starts the server and waits (up to 30 s) until it accepts connections.
     *
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpReferenceServer() throws IOException, InterruptedException {
        this("streamableHttp");
    }

    private HttpReferenceServer(String mode) throws IOException, InterruptedException {
        Launched launched = launch(mode);
        process = launched.process();
        port = launched.port();
        stderr = launched.stderr();
    }

    /**
     * Starts server-everything in its {@code sse} mode: the HTTP+SSE transport of protocol 2024-11-05
     * ({@code GET /sse}, {@code POST /message?sessionId=...}); see {@link #sseUrl()}.
     *
     * @return the started server
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public static HttpReferenceServer sse() throws IOException, InterruptedException {
        return new HttpReferenceServer("sse");
    }

    private record Launched(Process process, int port, Path stderr) {
    }

    private static Launched launch(String mode) throws IOException, InterruptedException {
        // the port is chosen here and bound by the server a moment later: another process may take it in between
        // (EADDRINUSE), so a launch that lost that race is retried on a new port
        for (int attempt = 1; ; attempt++) {
            int candidate = freePort();
            Path log = Processes.stderrLog("server-everything");
            ProcessBuilder pb = new ProcessBuilder(ReferenceServer.httpCommand(mode))
                    .directory(ReferenceServer.nodeDir().toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(log.toFile());
            pb.environment().put("PORT", Integer.toString(candidate));
            Process p = pb.start();
            try {
                awaitListening(p, candidate, log);
                return new Launched(p, candidate, log);
            } catch (RuntimeException | InterruptedException e) {
                boolean lostRace = !p.isAlive() && Processes.stderrNote(log).contains("EADDRINUSE");
                Processes.end(p);
                Processes.deleteQuietly(log);
                if (!lostRace || attempt == 3 || e instanceof InterruptedException) {
                    throw e;
                }
            }
        }
    }

    private static void awaitListening(Process p, int port, Path log) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!accepts(port) || !p.isAlive()) {
            if (!p.isAlive()) {
                throw new IllegalStateException("server-everything exited with " + p.exitValue()
                        + Processes.stderrNote(log));
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("server-everything did not listen on port " + port + " in 30 s"
                        + Processes.stderrNote(log));
            }
            Thread.sleep(50); // polling a port: there is no event to wait on
        }
    }

    /**
     * Returns the MCP endpoint.
     *
     * @return {@code http://127.0.0.1:<port>/mcp}
     */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port + "/mcp");
    }

    /**
     * Returns the SSE URL of a server started with {@link #sse()}.
     *
     * @return {@code http://127.0.0.1:<port>/sse}
     */
    public URI sseUrl() {
        return URI.create("http://127.0.0.1:" + port + "/sse");
    }

    private static InetAddress ipv4Loopback() {
        try {
            return InetAddress.getByAddress("127.0.0.1", new byte[] {127, 0, 0, 1});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, IPV4_LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(IPV4_LOOPBACK, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        Processes.end(process);
        Processes.deleteQuietly(stderr);
    }
}
