package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.testkit.HttpModernFixture;
import dev.loommcp.testkit.UnixSocketServer;
import dev.loommcp.testkit.ModernFixture;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The clients of one era-matrix test: each one over a recorded transport from {@link #newTransport()}, in the
 * class's {@link #mode()}; all closed after the test (and checked for leftovers by {@link LeakCheck}). An HTTP class
 * names its fixture variant in {@link #httpServer()}: one server then serves the whole class ({@link #endpoint()}).
 */
@ExtendWith(LeakCheck.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FixtureClients {

    /** The modern protocol version. */
    static final String MODERN = ProtocolMode.MODERN_PROTOCOL_VERSION;
    /** The newest legacy protocol version. */
    static final String LEGACY = "2025-11-25";
    /**
     * The AUTO probe's timeout in these tests: a Node server on a loaded 2-core machine may need seconds to start,
     * and a probe that times out would (rightly) conclude "legacy"; the silent-server tests set their own, short one.
     */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);

    private final List<McpClient> clients = new CopyOnWriteArrayList<>();
    private final List<RecordingTransport> recordings = new CopyOnWriteArrayList<>();
    private HttpModernFixture server;
    private UnixSocketServer unixServer;

    /**
     * Returns a new transport to the class's server: over HTTP to the class's server ({@link #httpServer()}), else
     * over stdio to a new process running {@link #stdioCommand()}.
     */
    protected McpTransport newTransport() {
        return http() ? HttpTransport.newBuilder(endpoint()).build()
                : StdioTransport.newBuilder(stdioCommand()).build();
    }

    /** Returns the command line of the class's stdio server (not used over HTTP). */
    protected List<String> stdioCommand() {
        throw new UnsupportedOperationException("no stdio server");
    }

    /** Returns the protocol mode the class's clients use. */
    protected abstract ProtocolMode mode();

    /** Returns whether the transport is Streamable HTTP (one server shared by the class's clients). */
    protected final boolean http() {
        return httpServer() != null;
    }

    /** Returns the fixture variant to run over HTTP for the whole class, or {@code null} (stdio: none). */
    protected ModernFixture.Variant httpServer() {
        return null;
    }

    /**
     * Returns whether the class's HTTP server listens on a unix socket ({@code unix:} endpoint, module
     * mcp-transport-unix) instead of a TCP port.
     */
    protected boolean unixSocket() {
        return false;
    }

    /** Returns the endpoint of the class's HTTP server. */
    URI endpoint() {
        return unixServer != null ? unixServer.endpoint() : server.endpoint();
    }

    @BeforeAll
    void startHttpServer() throws Exception {
        if (httpServer() != null && unixSocket()) {
            unixServer = UnixSocketServer.modernFixture(httpServer());
        } else if (httpServer() != null) {
            server = new HttpModernFixture(httpServer());
        }
    }

    @AfterAll
    void stopHttpServer() {
        if (server != null) {
            server.close();
        }
        if (unixServer != null) {
            unixServer.close();
        }
    }

    /** Builds and connects a client; {@code customize} may add handlers. */
    McpClient connect(Consumer<McpClient.Builder> customize) throws Exception {
        McpClient client = build(customize);
        client.connect();
        return client;
    }

    McpClient connect() throws Exception {
        return connect(b -> { });
    }

    /** Builds a client (not connected), recorded and closed after the test. */
    McpClient build(Consumer<McpClient.Builder> customize) throws Exception {
        RecordingTransport recording = new RecordingTransport(newTransport());
        McpClient.Builder b = McpClient.newBuilder(recording)
                .protocolMode(mode())
                .probeTimeout(PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30));
        customize.accept(b);
        McpClient client = b.build();
        clients.add(client);
        recordings.add(recording);
        return client;
    }

    /** Returns the recording of the n-th client built in this test. */
    RecordingTransport recording(int n) {
        return recordings.get(n);
    }

    /** Returns the requests the n-th client sent, in order. */
    List<JsonRpcMessage.Request> sentRequests(int n) {
        List<JsonRpcMessage.Request> out = new ArrayList<>();
        for (JsonRpcMessage m : recording(n).sent()) {
            if (m instanceof JsonRpcMessage.Request r) {
                out.add(r);
            }
        }
        return out;
    }

    /** Returns the sent requests of the n-th client with the given method. */
    List<JsonRpcMessage.Request> sentRequests(int n, String method) {
        return sentRequests(n).stream().filter(r -> r.method().equals(method)).toList();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @AfterEach
    void closeClients() {
        for (McpClient c : clients) {
            c.close();
            assertThat(c.pendingRequestCount()).isZero();
        }
        clients.clear();
        recordings.clear();
    }
}
