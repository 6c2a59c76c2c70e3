package dev.loommcp.internal.session;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.ClientConfigs;
import dev.loommcp.McpClient;
import dev.loommcp.testing.McpThreadLeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Connected {@link Session}s for this package's tests, over a {@link ScriptedTransport}: after each test it closes
 * them and checks that no {@code mcp-} thread is left behind. Register as an instance field:
 * {@code @RegisterExtension final SessionsUnderTest sessions = new SessionsUnderTest();}.
 */
final class SessionsUnderTest implements BeforeEachCallback, AfterEachCallback {

    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    private Set<Long> before = Set.of();

    @Override
    public void beforeEach(ExtensionContext context) {
        before = McpThreadLeakCheck.snapshot();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        sessions.forEach(Session::close);
        sessions.clear();
        McpThreadLeakCheck.assertNoNewThreads(before);
    }

    /** A session over {@code t} in {@code mode}, connected with the default options. */
    Session connect(ScriptedTransport t, ProtocolMode mode) throws InterruptedException {
        Session s = new Session(ClientConfigs.of(McpClient.newBuilder(t).protocolMode(mode)));
        sessions.add(s);
        s.connect(RequestOptions.DEFAULT);
        return s;
    }
}
