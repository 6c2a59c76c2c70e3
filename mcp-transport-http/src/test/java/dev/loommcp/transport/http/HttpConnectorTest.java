package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.testing.TestSendContext;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@link HttpConnector} seam: endpoints of another scheme are refused clearly when no connector serves them, and
 * a connector's client carries every exchange (its route is what requests, logs and keys use) and its connect
 * failures reach the user with the connector's words.
 */
@ExtendWith(LeakCheck.class)
class HttpConnectorTest {

    TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void unixEndpointsWithoutTheModuleNameTheModuleToAdd() {
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix:/run/app.sock:/mcp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mcp-transport-unix");
        assertThatThrownBy(() -> HttpTransport.newBuilder("vsock:3:5000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("vsock: endpoints are not supported");
        assertThatThrownBy(() -> HttpTransport.newBuilder("ftp://example.com/mcp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("http or https").hasMessageContaining("ftp:");
    }

    /** A connector of the scheme {@code test:} whose requests go to the test server, on the JDK's client. */
    private class Loopback extends LoopbackConnector {
        Loopback() {
            super(server, "test");
        }
    }

    @Test
    void aConnectorsClientCarriesTheExchangesAndItsRouteNamesTheEndpoint() throws Exception {
        server.handler((req, ex) -> TestServer.json(ex, 200, HttpTransportTest.initResult(req.rpcId(), "2025-11-25")));
        Loopback connector = new Loopback();
        RecordingSink sink = new RecordingSink();
        try (HttpTransport t = HttpTransport.newBuilder(URI.create("test:/mcp"), connector).build()) {
            assertThat(t.describe()).isEqualTo("test:server");
            assertThat(t.serverKey().orElseThrow()).isEqualTo("test:server/mcp");
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.exchange(HttpTransportTest.initialize(1), TestSendContext.of(1));
            assertThat(sink.next(HttpTransportTest.WAIT)).isInstanceOfSatisfying(JsonRpcMessage.Response.class,
                    r -> assertThat(r.id()).isEqualTo(RequestId.of(1)));
            assertThat(connector.clients).hasSize(1);
        }
        assertThat(server.requests("POST")).singleElement()
                .satisfies(r -> assertThat(r.uri().getPath()).isEqualTo("/mcp"));
        assertThat(connector.clients.get(0).isTerminated()).isTrue();
        assertThatThrownBy(() -> HttpTransport.newBuilder(URI.create("other:/mcp"), connector))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not test:");
    }

    /** A client that follows redirects would resend bodies and credentials wherever a server points: refused. */
    @Test
    void aConnectorsClientThatFollowsRedirectsIsRefused() throws InterruptedException {
        Loopback following = new Loopback();
        following.redirect = HttpClient.Redirect.NORMAL;
        try (HttpTransport t = HttpTransport.newBuilder(URI.create("test:/mcp"), following).build()) {
            assertThatThrownBy(() -> t.open(TransportContext.of(new RecordingSink(), Deadline.NONE)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("followRedirects() is NORMAL").hasMessageContaining("must be NEVER");
        }
        assertThat(following.clients).hasSize(1);
        assertThat(following.clients.getFirst().awaitTermination(Duration.ofSeconds(30))).isTrue();
        assertThat(server.requests("POST")).isEmpty();
    }

    @Test
    void aConnectorsConnectFailureReachesTheUserInItsOwnWords() throws Exception {
        HttpConnector refusing = new Loopback() {
            @Override
            public HttpClient newClient(URI endpoint, Options options) {
                HttpClient real = super.newClient(endpoint, options);
                return new DelegatingClient(real) {
                    @Override
                    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                                                                            HttpResponse.BodyHandler<T> handler) {
                        return CompletableFuture.failedFuture(new ConnectException("cannot reach test:server: gone"));
                    }
                };
            }
        };
        RecordingSink sink = new RecordingSink();
        try (HttpTransport t = HttpTransport.newBuilder(URI.create("test:/mcp"), refusing).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            assertThatThrownBy(() -> t.exchange(HttpTransportTest.initialize(1), TestSendContext.of(1)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("cannot reach test:server: gone");
        }
    }
}
