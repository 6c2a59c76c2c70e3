package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.spi.Deadline;
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

    /** Builds and opens a transport, closed after the test. */
    HttpTransport open(HttpTransport.Builder b) {
        HttpTransport t = b.build();
        opened.add(t);
        t.open(TransportContext.of(sink, Deadline.NONE));
        return t;
    }
}
