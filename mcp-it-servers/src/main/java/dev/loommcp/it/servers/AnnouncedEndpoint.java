package dev.loommcp.it.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A test server process that prints its Streamable HTTP endpoint ({@code http://127.0.0.1:PORT/mcp}) as its first
 * line on stdout once it listens: loom-mcp's Node fixtures started with {@code --http 0}. Runs in
 * {@link ReferenceServer#nodeDir()} with its stderr in a temporary log (quoted when the launch fails).
 */
final class AnnouncedEndpoint implements AutoCloseable {

    /** How long a launch waits for the endpoint line. */
    private static final long LISTEN_SECONDS = 30;

    private final String name;
    private final Process process;
    private final Path stderr;
    private final URI endpoint;

    /**
     * Starts the process and waits (up to 30 s) until it prints its endpoint.
     *
     * @param name    the server's name, for messages and the log file
     * @param command its command line
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits first, does not listen in time, or prints an endpoint that is not
     *                               on 127.0.0.1 (the process is ended then)
     * @throws InterruptedException  if interrupted while waiting (the process is ended then)
     */
    AnnouncedEndpoint(String name, List<String> command) throws IOException, InterruptedException {
        this.name = name;
        stderr = Processes.stderrLog(name.replaceAll("[^A-Za-z0-9-]+", "-"));
        process = new ProcessBuilder(command)
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectError(stderr.toFile())
                .start();
        CompletableFuture<String> firstLine = new CompletableFuture<>();
        // a platform daemon thread: it blocks in a pipe read for the process's lifetime (drains stdout after line 1)
        Thread reader = new Thread(() -> drain(firstLine), "fixture-http-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String line = firstLine.get(LISTEN_SECONDS, TimeUnit.SECONDS);
            if (line == null) {
                throw new IllegalStateException(name + " exited before listening" + exitNote()
                        + Processes.stderrNote(stderr));
            }
            URI uri = URI.create(line.strip());
            if (!"127.0.0.1".equals(uri.getHost()) || uri.getPort() <= 0) {
                throw new IllegalStateException(name + " printed an unexpected endpoint: " + line);
            }
            endpoint = uri;
        } catch (TimeoutException e) {
            String note = Processes.stderrNote(stderr);
            close();
            throw new IllegalStateException(name + " did not listen in " + LISTEN_SECONDS + " s" + note);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException("reading " + name + "'s stdout failed", e.getCause());
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
    }

    private void drain(CompletableFuture<String> firstLine) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            firstLine.complete(r.readLine());
            while (r.readLine() != null) {
                // keep the pipe drained; nothing else is printed on stdout
            }
        } catch (IOException e) {
            firstLine.completeExceptionally(new UncheckedIOException(e));
        }
    }

    private String exitNote() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " with status " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The endpoint the process printed. */
    URI endpoint() {
        return endpoint;
    }

    /** The process. */
    Process process() {
        return process;
    }

    /** Ends the process and its children, bounded (TERM, 5 s, KILL, 5 s), and deletes the stderr log. */
    @Override
    public void close() {
        Processes.end(process);
        Processes.deleteQuietly(stderr);
    }

    @Override
    public String toString() {
        return name + " at " + endpoint;
    }
}
