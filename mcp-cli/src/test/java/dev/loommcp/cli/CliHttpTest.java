package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.it.servers.ReferenceServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CLI over Streamable HTTP ({@code --http}, {@code --header}): against server-everything in
 * {@code streamableHttp} mode on a free loopback port, and against a tiny local server that refuses every request
 * with 401.
 */
@ExtendWith(LeakCheck.class)
class CliHttpTest {

    record Run(int code, String out, String err) {
    }

    private static HttpReferenceServer server;
    private static String endpoint;

    @BeforeAll
    static void startServer() throws Exception {
        server = new HttpReferenceServer();
        endpoint = server.endpoint().toString();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static Run mcp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), name -> null, args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void everyCommandWorksOverHttp() {
        Run tools = mcp("--http", endpoint, "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("echo ").contains("Echo Tool");

        Run call = mcp("--http", endpoint, "--header", "X-Loom-Test: yes", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).isEqualTo("Echo: hi\n");

        Run json = mcp("--http", endpoint, "--json", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(Json.read(json.out())).isEqualTo(Map.of("content",
                List.of(Map.of("type", "text", "text", "Echo: hi"))));

        Run info = mcp("--http", endpoint, "info");
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("Everything Reference Server");

        Run read = mcp("--http", endpoint, "read", "demo://resource/static/document/architecture.md");
        assertThat(read.code()).as(read.err()).isZero();
        assertThat(read.out()).isNotBlank();

        Run prompt = mcp("--http", endpoint, "prompt", "args-prompt", "{\"city\":\"Paris\"}");
        assertThat(prompt.code()).as(prompt.err()).isZero();
        assertThat(prompt.out()).contains("Paris");

        Run rpcError = mcp("--http", endpoint, "prompt", "no-such-prompt");
        assertThat(rpcError.code()).isEqualTo(4);

        Run ping = mcp("--http", endpoint, "ping");
        assertThat(ping.code()).as(ping.err()).isZero();
        assertThat(ping.out()).startsWith("pong");
    }

    @Test
    void aTimeoutOverHttpExitsFive() {
        Run r = mcp("--http", endpoint, "--timeout", "1s", "call", "trigger-long-running-operation",
                "{\"duration\":5,\"steps\":5}");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
    }

    @Test
    void anHttpErrorExitsThreeNamingTheStatus() {
        Run r = mcp("--http", endpoint.replace("/mcp", "/no-such-path"), "tools");
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains("HTTP 404");
    }

    @Test
    void aServerThatWantsAuthorizationSaysSoWithoutShowingTheHeaderValue() throws Exception {
        try (ServerSocket refusing = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().name("test-401-server").start(() -> {
                while (!refusing.isClosed()) {
                    try (Socket s = refusing.accept()) {
                        answer401(s);
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
            try {
                Run r = mcp("--http", "http://127.0.0.1:" + refusing.getLocalPort() + "/mcp",
                        "--header", "Authorization: Bearer secret-token-value", "tools");
                assertThat(r.code()).isEqualTo(3);
                assertThat(r.err()).contains("HTTP 401").contains("authorization (Bearer)")
                        .contains("authorize with --oauth (or --client-credentials), or send credentials with "
                                + "--header 'Authorization: ...'")
                        .doesNotContain("secret-token-value");
            } finally {
                refusing.close();
                acceptor.join();
            }
        }
    }

    /** Reads one request (headers and body) and answers 401 with a Bearer challenge. */
    private static void answer401(Socket s) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
        int length = 0;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        for (int i = 0; i < length; i++) {
            in.read();
        }
        OutputStream out = s.getOutputStream();
        out.write(("HTTP/1.1 401 Unauthorized\r\n"
                + "WWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\"\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }
}
