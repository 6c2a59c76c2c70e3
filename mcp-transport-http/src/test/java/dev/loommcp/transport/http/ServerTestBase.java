package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.RecordingSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The frame of a test against the scriptable in-process server: a fresh {@link TestServer} and {@link RecordingSink}
 * per test, and every transport opened with {@link #open} closed afterwards with no exchange left open.
 */
abstract class ServerTestBase {

    TestServer server;
    RecordingSink sink;
    private final List<HttpTransport> opened = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = new TestServer();
        sink = new RecordingSink();
    }

    @AfterEach
    void closeTransportsAndServer() {
        for (HttpTransport t : opened) {
            t.close();
            assertThat(t.activeExchangeCount()).as("exchanges left open by " + t).isZero();
        }
        server.close();
    }

    /** Answers one request of the test's own: {@link #serveRequests} handles the rest. */
    @FunctionalInterface
    interface RequestAnswer {
        void answer(TestServer.Req req, com.sun.net.httpserver.HttpExchange ex) throws Exception;
    }

    /**
     * Serves a legacy-era session: {@code initialize} (session {@code s1}), 202 for notifications and responses,
     * {@code ping}, and every other request with {@code answer}.
     */
    void serveRequests(RequestAnswer answer) {
        server.handler((req, ex) -> {
            if (HttpTransportFaultsTest.answeredPlumbing(req, ex, () -> "s1")) {
                return;
            }
            if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else if ("ping".equals(req.rpcMethod())) {
                TestServer.json(ex, 200, TestServer.result(req.rpcId(), "{}"));
            } else {
                answer.answer(req, ex);
            }
        });
    }

    /** Builds and opens a transport, closed after the test. */
    HttpTransport open(HttpTransport.Builder b) {
        HttpTransport t = b.build();
        opened.add(t);
        t.open(TransportContext.of(sink, Deadline.NONE));
        return t;
    }
}
