package dev.loommcp.testing;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Builds clients over a {@link ScriptedTransport} for the session tests, and after each test checks that no request
 * is left pending ({@link McpClient#pendingRequestCount()} back to 0), closes every client, and checks that no
 * {@code mcp-} thread is left behind ({@link McpThreadLeakCheck}).
 *
 * <p>Register it as an instance field: {@code @RegisterExtension final Sessions sessions = new Sessions();}. (The
 * test-only package {@code dev.loommcp.testing} is not opened to JUnit, so nothing here is found by reflection: JUnit
 * only calls the callback interfaces.)
 */
public final class Sessions implements BeforeEachCallback, AfterEachCallback {

    private final List<McpClient> clients = new CopyOnWriteArrayList<>();
    private Set<Long> threadsBefore = Set.of();

    /** Creates the extension. */
    public Sessions() {
    }

    /**
     * A client and its fake server.
     *
     * @param server the scripted transport
     * @param client the client
     */
    public record Session(ScriptedTransport server, McpClient client) {
    }

    /**
     * Builds and connects a client with default settings.
     *
     * @param mode the transport mode
     * @return the session
     * @throws InterruptedException if interrupted
     */
    public Session connected(ScriptedTransport.Mode mode) throws InterruptedException {
        return connected(mode, s -> { }, b -> b);
    }

    /**
     * Builds and connects a client.
     *
     * @param mode   the transport mode
     * @param script configures the fake server before connecting
     * @param config configures the client builder
     * @return the session
     * @throws InterruptedException if interrupted
     */
    public Session connected(ScriptedTransport.Mode mode, Consumer<ScriptedTransport> script,
                             UnaryOperator<McpClient.Builder> config) throws InterruptedException {
        Session s = unconnected(mode, script, config);
        s.client().connect();
        return s;
    }

    /**
     * Builds a client without connecting it. It speaks the legacy era ({@link ProtocolMode#LEGACY}) unless
     * {@code config} sets another mode.
     *
     * @param mode   the transport mode
     * @param script configures the fake server
     * @param config configures the client builder
     * @return the session
     */
    public Session unconnected(ScriptedTransport.Mode mode, Consumer<ScriptedTransport> script,
                               UnaryOperator<McpClient.Builder> config) {
        ScriptedTransport server = ScriptedTransport.create(mode);
        script.accept(server);
        // the session tests speak the legacy era unless they ask for another mode (the era tests do)
        McpClient client = config.apply(McpClient.newBuilder(server).protocolMode(ProtocolMode.LEGACY)).build();
        clients.add(client);
        return new Session(server, client);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        threadsBefore = McpThreadLeakCheck.snapshot();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        try {
            for (McpClient c : clients) {
                Await.until("pendingRequestCount() of " + c + " back to 0", () -> c.pendingRequestCount() == 0);
            }
        } finally {
            for (McpClient c : clients) {
                c.close();
            }
        }
        for (McpClient c : clients) {
            Await.until("pendingRequestCount() of " + c + " back to 0 after close",
                    () -> c.pendingRequestCount() == 0);
        }
        McpThreadLeakCheck.assertNoNewThreads(threadsBefore);
    }
}
