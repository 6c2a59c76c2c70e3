package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A reference server listening on a unix domain socket in a fresh private temporary directory, for a test class:
 * server-everything over Streamable HTTP (legacy era), the modern-era fixture or the tasks fixture. The node process runs with the
 * preload {@code test-servers/unix-listen.cjs}, which makes its HTTP server listen on the socket instead of a TCP
 * port. {@link #close()} ends the process and deletes the directory.
 */
public final class UnixSocketServer implements AutoCloseable {

    private static final long LISTEN_SECONDS = 30;

    private final String name;
    private final Path dir;
    private final Path socket;
    private final Path stderr;
    private final Process process;

    private UnixSocketServer(String name, List<String> command) throws IOException, InterruptedException {
        this.name = name;
        this.dir = Files.createTempDirectory("mcp-unix-");
        this.socket = dir.resolve("mcp.sock");
        this.stderr = Processes.stderrLog(name.replaceAll("[^A-Za-z0-9-]+", "-"));
        List<String> argv = new ArrayList<>(command);
        argv.addAll(1, List.of("-r", ReferenceServer.nodeDir().resolve("unix-listen.cjs").toString()));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        pb.environment().put("MCP_UNIX_SOCKET", socket.toString());
        Process p = null;
        try {
            p = pb.start();
            process = p;
            awaitListening();
        } catch (IOException | RuntimeException | InterruptedException e) {
            if (p != null) {
                Processes.end(p);
            }
            deleteTree(dir);
            Processes.deleteQuietly(stderr);
            throw e;
        }
    }

    /**
     * Starts server-everything ({@code streamableHttp}, MCP served at {@code /mcp}) on a socket and waits (up to
     * 30 s) until it accepts connections.
     *
     * @return the server
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public static UnixSocketServer referenceServer() throws IOException, InterruptedException {
        return new UnixSocketServer("server-everything-unix", ReferenceServer.httpCommand());
    }

    /**
     * Starts the modern-era fixture over Streamable HTTP (MCP served at {@code /mcp}) on a socket and waits (up to
     * 30 s) until it accepts connections.
     *
     * @param variant dual-era or modern-only
     * @return the server
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public static UnixSocketServer modernFixture(ModernFixture.Variant variant)
            throws IOException, InterruptedException {
        return new UnixSocketServer("modern-fixture-unix-" + variant, ModernFixture.httpCommand(variant));
    }

    /**
     * Starts the tasks-extension fixture ({@code test-servers/tasks-fixture.mjs}) over Streamable HTTP (MCP served at
     * {@code /mcp}) on a socket and waits (up to 30 s) until it accepts connections.
     *
     * @return the server
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public static UnixSocketServer tasksFixture() throws IOException, InterruptedException {
        return new UnixSocketServer("tasks-fixture-unix", TasksFixture.httpCommand());
    }

    private void awaitListening() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(LISTEN_SECONDS);
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue()
                        + Processes.stderrNote(stderr));
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(name + " did not listen on " + socket + " in " + LISTEN_SECONDS
                        + " s" + Processes.stderrNote(stderr));
            }
            Thread.sleep(50); // polling a socket file: there is no event to wait on
        }
    }

    private boolean accepts() {
        if (!Files.exists(socket)) {
            return false;
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Returns the socket file.
     *
     * @return its path
     */
    public Path socket() {
        return socket;
    }

    /**
     * Returns the MCP endpoint.
     *
     * @return {@code unix:<socket>:/mcp}
     */
    public URI endpoint() {
        return URI.create("unix:" + socket.toUri().getRawPath() + ":/mcp");
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s), and deletes its directory. */
    @Override
    public void close() {
        Processes.end(process);
        deleteTree(dir);
        Processes.deleteQuietly(stderr);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(Processes::deleteQuietly);
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }

    @Override
    public String toString() {
        return name + " at " + endpoint();
    }
}
