package dev.loommcp.transport.http;

import dev.loommcp.testkit.ReferenceServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** server-everything in {@code streamableHttp} mode on a free loopback port, for one test class or test. */
final class EverythingServer implements AutoCloseable {

    private final Process process;
    private final int port;

    EverythingServer() throws IOException {
        port = freePort();
        ProcessBuilder pb = new ProcessBuilder(ReferenceServer.httpCommand())
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PORT", Integer.toString(port));
        process = pb.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("server-everything exited with " + process.exitValue());
                        }
                        return accepts(port);
                    });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    URI endpoint() {
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

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
