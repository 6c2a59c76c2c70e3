package dev.loommcp.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The echo server as an HTTP server in a child process ({@code EchoServer --http}, or any command that prints
 * {@code LISTENING <port>} as its first line and ends when its stdin ends), for the HTTP clients of the benchmark.
 * Its CPU time counts as the child's, like the stdio server's.
 */
final class HttpServerProcess implements AutoCloseable {

    private final Process process;
    private final URI endpoint;

    private HttpServerProcess(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /**
     * Starts the server: {@code serverArgv} plus {@code --http} (and {@code --sse}), and waits for its port.
     *
     * @param serverArgv the stdio server's command line
     * @param sse        whether the server answers requests as SSE streams ({@code EchoServer --sse})
     * @return the running server
     * @throws IOException if it cannot start or does not say its port
     */
    static HttpServerProcess start(List<String> serverArgv, boolean sse) throws IOException {
        List<String> argv = new ArrayList<>(serverArgv);
        argv.add("--http");
        if (sse) {
            argv.add("--sse");
        }
        Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
        String line = r.readLine();
        if (line == null || !line.startsWith("LISTENING ")) {
            p.destroyForcibly();
            throw new IOException("the HTTP echo server did not say its port: " + line);
        }
        int port = Integer.parseInt(line.substring("LISTENING ".length()).strip());
        return new HttpServerProcess(p, URI.create("http://127.0.0.1:" + port + "/mcp"));
    }

    /** The MCP endpoint. */
    URI endpoint() {
        return endpoint;
    }

    /** Ends the server: closes its stdin, then kills it if it is still there after 5 s. */
    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // gone already
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
