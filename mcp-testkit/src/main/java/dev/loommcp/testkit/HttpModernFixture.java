package dev.loommcp.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The modern-era fixture ({@link ModernFixture}) over Streamable HTTP on an ephemeral port of 127.0.0.1, for a test
 * class: one process serves every client of the class (its notes and listen streams are shared by them).
 * {@link #close()} ends it and its children.
 */
public final class HttpModernFixture implements AutoCloseable {

    private final ModernFixture.Variant variant;
    private final Process process;
    private final URI endpoint;
    private final Path stderr;

    /**
     * Starts the fixture and waits (up to 30 s) until it prints its endpoint, which it does once it listens.
     *
     * @param variant dual-era or modern-only
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpModernFixture(ModernFixture.Variant variant) throws IOException, InterruptedException {
        this.variant = variant;
        stderr = Processes.stderrLog("modern-fixture");
        process = new ProcessBuilder(ModernFixture.httpCommand(variant))
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectError(stderr.toFile())
                .start();
        CompletableFuture<String> firstLine = new CompletableFuture<>();
        // a platform daemon thread: it blocks in a pipe read for the process's lifetime (drains stdout after line 1)
        Thread reader = new Thread(() -> drain(firstLine), "fixture-http-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String line = firstLine.get(30, TimeUnit.SECONDS);
            if (line == null) {
                throw new IllegalStateException("modern-fixture (" + variant + ") exited before listening"
                        + exitNote() + Processes.stderrNote(stderr));
            }
            endpoint = URI.create(line.strip());
            if (!"127.0.0.1".equals(endpoint.getHost()) || endpoint.getPort() <= 0) {
                throw new IllegalStateException("modern-fixture printed an unexpected endpoint: " + line);
            }
        } catch (TimeoutException e) {
            String note = Processes.stderrNote(stderr);
            close();
            throw new IllegalStateException("modern-fixture (" + variant + ") did not listen in 30 s" + note);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException("reading modern-fixture's stdout failed", e.getCause());
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

    /**
     * Returns the MCP endpoint.
     *
     * @return {@code http://127.0.0.1:<port>/mcp}
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Returns which variant runs.
     *
     * @return the variant
     */
    public ModernFixture.Variant variant() {
        return variant;
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        Processes.end(process);
        Processes.deleteQuietly(stderr);
    }
}
