package dev.loommcp.transport.unix;

import static dev.loommcp.transport.unix.ScriptServer.answer;
import static dev.loommcp.transport.unix.ScriptServer.startSse;
import static dev.loommcp.transport.unix.ScriptServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.HttpConnector;
import dev.loommcp.transport.http.HttpTransport;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code unix:} endpoints: the syntax, the errors a socket can give (missing, not a socket, not permitted), and what
 * only a scripted server can show over a socket: a broken response stream resumed with {@code Last-Event-ID} in the
 * session, caller headers and the request signer on every request, the DELETE on close, a deadline that aborts the
 * connection.
 */
@ExtendWith(LeakCheck.class)
class UnixTransportTest {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    @TempDir
    Path dir;

    // ---------------------------------------------------------------------------------------------------------
    // syntax

    @Test
    void endpointSyntaxGivesTheSocketAndTheHttpPath() {
        UnixConnector c = new UnixConnector();
        assertThat(c.route(URI.create("unix:/run/app.sock")))
                .isEqualTo(new HttpConnector.Route(URI.create("http://localhost/"), "unix:/run/app.sock"));
        assertThat(c.route(URI.create("unix:/run/app.sock:/mcp")))
                .isEqualTo(new HttpConnector.Route(URI.create("http://localhost/mcp"), "unix:/run/app.sock"));
        assertThat(c.route(URI.create("unix:///run/app.sock:/mcp?tenant=a%20b")).requestUri())
                .isEqualTo(URI.create("http://localhost/mcp?tenant=a%20b"));
        assertThat(c.route(URI.create("unix:/run/my%3Aapp%20x.sock:/a/b")))
                .isEqualTo(new HttpConnector.Route(URI.create("http://localhost/a/b"), "unix:/run/my:app x.sock"));
    }

    @Test
    void infoIsUnixWithTheSocketPathForInterceptorsAndTelemetry() {
        try (HttpTransport t = HttpTransport.newBuilder(URI.create("unix:/run/app.sock:/mcp")).build()) {
            assertThat(t.info()).isEqualTo(new dev.loommcp.spi.TransportInfo(dev.loommcp.spi.TransportInfo.Kind.UNIX,
                    "/run/app.sock", null));
        }
    }

    @Test
    void endpointsBuiltFromAPathEncodeWhatTheSyntaxNeeds() {
        URI e = UnixConnector.endpoint(Path.of("/run/my:app x.sock"), "/mcp?x=1");
        assertThat(e.toString()).isEqualTo("unix:/run/my%3Aapp%20x.sock:/mcp?x=1");
        assertThat(new UnixConnector().route(e))
                .isEqualTo(new HttpConnector.Route(URI.create("http://localhost/mcp?x=1"), "unix:/run/my:app x.sock"));
        assertThatThrownBy(() -> UnixConnector.endpoint(Path.of("/run/app.sock"), "mcp"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must start with '/'");
    }

    @Test
    void badEndpointsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix:run/app.sock"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute socket path");
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix://host/run/app.sock"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no host");
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix:/run/app.sock:mcp"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must start with '/'");
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix:/run/"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
        assertThatThrownBy(() -> HttpTransport.newBuilder("unix:/run/app.sock#x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fragment");
    }

    @Test
    void tlsSettingsAreRefusedForASocket() throws Exception {
        HttpTransport.Builder b = HttpTransport.newBuilder("unix:/run/app.sock:/mcp")
                .sslContext(SSLContext.getDefault());
        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("https endpoints only");
    }

    @Test
    void theServiceLoaderFindsTheConnectorAndTheTransportNamesTheSocket() {
        HttpTransport t = HttpTransport.newBuilder("unix:/run/app.sock:/mcp?key=secret")
                .header("Authorization", "Bearer secret").build();
        assertThat(t.endpoint()).isEqualTo(URI.create("unix:/run/app.sock:/mcp?key=secret"));
        assertThat(t.describe()).isEqualTo("unix:/run/app.sock");
        // the whole endpoint, its query as a digest (issue 26 item 13)
        assertThat(t.serverKey().orElseThrow()).startsWith("unix:/run/app.sock/mcp?sha256:").doesNotContain("secret");
        // the socket is named; the HTTP path may hold a secret a reference put there (break test item 8)
        assertThat(t.toString()).contains("unix:/run/app.sock/<path redacted>?<redacted>").doesNotContain("secret");
    }

    // ---------------------------------------------------------------------------------------------------------
    // sockets that cannot be used

    @Test
    void aMissingSocketFailsNamingThePath() throws Exception {
        Path socket = dir.resolve("nobody-listens.sock");
        assertThat(connectFailure(socket)).isInstanceOf(McpTransportException.class)
                .hasMessageContaining("cannot connect to unix socket " + socket)
                .hasMessageContaining("no such file");
    }

    @Test
    void aFileThatIsNotASocketFailsNamingThePath() throws Exception {
        Path file = Files.writeString(dir.resolve("plain.txt"), "not a socket");
        assertThat(connectFailure(file)).isInstanceOf(McpTransportException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("regular file, not a socket");
    }

    @Test
    void aSocketNobodyListensOnFailsNamingThePath() throws Exception {
        Path socket = dir.resolve("stale.sock");
        ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        ch.bind(UnixDomainSocketAddress.of(socket));
        ch.close(); // the file stays: a stale socket
        assertThat(connectFailure(socket)).isInstanceOf(McpTransportException.class)
                .hasMessageContaining(socket.toString()).hasMessageContaining("connection refused");
    }

    @Test
    void aSocketTheUserMayNotOpenFailsNamingThePath() throws Exception {
        Path probe = Files.writeString(dir.resolve("probe"), "x");
        Files.setPosixFilePermissions(probe, PosixFilePermissions.fromString("---------"));
        Assumptions.assumeFalse(Files.isReadable(probe), "file permissions do not bind this user (running as root "
                + "or with CAP_DAC_OVERRIDE): a socket with mode 000 could still be opened; the not-a-socket and "
                + "missing-socket cases cover the error path");
        Path socket = dir.resolve("private.sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("---------"));
            assertThat(connectFailure(socket)).isInstanceOf(McpTransportException.class)
                    .hasMessageContaining(socket.toString()).hasMessageContaining("permission denied");
        }
    }

    @Test
    void aRefusalForPermissionsIsReportedAsSuchEvenWhereTheTestRunsAsRoot() throws Exception {
        // the operating system's EACCES as the JDK reports it, on a real socket: what a user without permission gets
        Path socket = dir.resolve("perm.sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(socket));
            assertThat(SocketDiagnosis.reason(socket, new java.net.SocketException("Permission denied")))
                    .startsWith("permission denied");
        }
    }

    /** Connects a client to the socket and returns why it failed; the client is closed. */
    private static Throwable connectFailure(Path socket) throws InterruptedException {
        McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(endpoint(socket)).build())
                .protocolMode(ProtocolMode.LEGACY)
                .requestTimeout(Duration.ofSeconds(20))
                .build();
        try (client) {
            client.connect();
            throw new AssertionError("connected to " + socket);
        } catch (McpException e) {
            return e;
        }
    }

    private static URI endpoint(Path socket) {
        return UnixConnector.endpoint(socket, "/mcp");
    }

    // ---------------------------------------------------------------------------------------------------------
    // a scripted server on the socket

    /** A 2025-11-25 server: a session, no GET stream, and {@code tools} answered by {@code tool}. */
    private static ScriptServer.Script legacyServer(ScriptServer.Script tool) {
        return (req, in, out) -> {
            if (req.method().equals("POST") && req.body().contains("\"initialize\"")) {
                answer(out, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id(req)
                        + ",\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                        + "\"serverInfo\":{\"name\":\"script\",\"version\":\"1\"}}}", "Mcp-Session-Id: s-1");
            } else if (req.method().equals("POST") && !req.body().contains("\"id\"")) {
                answer(out, 202, null, "");
            } else if (req.method().equals("GET") && req.header("Last-Event-ID") == null) {
                answer(out, 405, null, "");
            } else if (req.method().equals("DELETE")) {
                answer(out, 200, null, "");
            } else {
                tool.answer(req, in, out);
            }
        };
    }

    private static String id(ScriptServer.Req req) {
        Matcher m = ID.matcher(req.body());
        return m.find() ? m.group(1) : "null";
    }

    @Test
    void aBrokenStreamIsResumedWithLastEventIdInTheSessionWithHeadersAndSignerOnEveryRequest() throws Exception {
        String[] callId = new String[1];
        Path socket = dir.resolve("s.sock");
        try (ScriptServer server = new ScriptServer(socket, legacyServer((req, in, out) -> {
            if (req.method().equals("POST")) {
                callId[0] = id(req);
                startSse(out);
                write(out, "id: e1\nretry: 100\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                        + "\"params\":{\"level\":\"info\",\"data\":\"half way\"}}\n\n");
                // the connection closes here, before the response
            } else {
                startSse(out);
                write(out, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + callId[0] + ",\"result\":{\"content\":"
                        + "[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n");
            }
        }))) {
            try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(endpoint(socket))
                            .header("X-Caller", "c-1")
                            .requestSigner((method, uri, headers, body) -> Map.of("X-Sig", method + " " + uri))
                            .build())
                    .protocolMode(ProtocolMode.LEGACY)
                    .requestTimeout(Duration.ofSeconds(20))
                    .build()) {
                client.connect();
                assertThat(client.callTool("slow", Map.of()).text()).isEqualTo("resumed");
            }
            List<ScriptServer.Req> gets = server.requests("GET");
            ScriptServer.Req resume = gets.get(gets.size() - 1);
            assertThat(resume.header("Last-Event-ID")).isEqualTo("e1");
            assertThat(resume.header("Mcp-Session-Id")).isEqualTo("s-1");
            assertThat(server.requests("DELETE")).singleElement()
                    .satisfies(d -> assertThat(d.header("Mcp-Session-Id")).isEqualTo("s-1"));
            assertThat(server.requests).allSatisfy(r -> {
                assertThat(r.target()).isEqualTo("/mcp");
                assertThat(r.header("Host")).isEqualTo("localhost");
                assertThat(r.header("X-Caller")).isEqualTo("c-1");
                assertThat(r.header("X-Sig")).isEqualTo(r.method() + " http://localhost/mcp");
            });
        }
    }

    @Test
    void aDeadlineAbortsTheConnectionAndTheClientStaysUsable() throws Exception {
        Path socket = dir.resolve("h.sock");
        try (ScriptServer server = new ScriptServer(socket, null)) {
            server.script(legacyServer((req, in, out) -> {
                if (req.body().contains("\"hang\"")) {
                    startSse(out);
                    server.holdUntilClientCloses(in);
                } else {
                    answer(out, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id(req)
                            + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}");
                }
            }));
            try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(endpoint(socket)).build())
                    .protocolMode(ProtocolMode.LEGACY)
                    .requestTimeout(Duration.ofSeconds(20))
                    .build()) {
                client.connect();
                // 3 s, not less: on a loaded machine a shorter deadline can pass before the request reaches the
                // server, which then never holds (or sees the close of) its connection
                assertThatThrownBy(() -> client.callTool("hang", Map.of(),
                        RequestOptions.ofTimeout(Duration.ofSeconds(3))))
                        .isInstanceOf(McpTimeoutException.class);
                // the server saw the connection close: the abort reached the socket
                assertThat(server.clientGone.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(client.pendingRequestCount()).isZero();
                assertThat(client.callTool("other", Map.of()).text()).isEqualTo("ok");
            }
        }
    }

    @Test
    void aCancelledCallAbortsItsConnection() throws Exception {
        Path socket = dir.resolve("c.sock");
        try (ScriptServer server = new ScriptServer(socket, null)) {
            server.script(legacyServer((req, in, out) -> {
                startSse(out);
                server.holdUntilClientCloses(in);
            }));
            try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(endpoint(socket)).build())
                    .protocolMode(ProtocolMode.LEGACY)
                    .requestTimeout(Duration.ofSeconds(20))
                    .build()) {
                client.connect();
                CancellationToken token = CancellationToken.create();
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        client.callTool("hang", Map.of(), RequestOptions.newBuilder().token(token).build());
                    } catch (McpException | InterruptedException e) {
                        // cancelled: expected
                    }
                });
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> server.requests("POST").stream().anyMatch(r -> r.body().contains("\"hang\"")));
                token.cancel("stop");
                assertThat(caller.join(Duration.ofSeconds(10))).isTrue();
                assertThat(server.clientGone.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }
}
