package dev.loommcp.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * server-everything in {@code streamableHttp} mode on a free port of 127.0.0.1 (the loopback-only preload pins it
 * there), for a test class. {@link #close()} ends it and its children.
 */
public final class HttpReferenceServer implements AutoCloseable {

    private final Process process;
    private final int port;

    /**
     * Starts the server and waits (up to 30 s) until it accepts connections.
     *
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpReferenceServer() throws IOException, InterruptedException {
        port = freePort();
        ProcessBuilder pb = new ProcessBuilder(ReferenceServer.httpCommand())
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PORT", Integer.toString(port));
        process = pb.start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            while (!accepts(port)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("server-everything exited with " + process.exitValue());
                }
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("server-everything did not listen on port " + port + " in 30 s");
                }
                Thread.sleep(50); // polling a port: there is no event to wait on
            }
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        Processes.end(process);
    }
}
