package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27 item 5 for the OAuth client's own requests (metadata, tokens): a gzip or deflate answer is decoded, its
 * size bounded after decoding; another coding is named in the error.
 */
@ExtendWith(LeakCheck.class)
class AuthHttpCodingTest {

    private HttpServer server;
    private volatile String coding;
    private volatile byte[] body;
    private AuthHttp http;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            try (ex) {
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.getResponseHeaders().set("Content-Encoding", coding);
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(body);
                }
            }
        });
        server.start();
        http = new AuthHttp(null, Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        http.close();
        server.stop(0);
    }

    private URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/.well-known/oauth-authorization-server");
    }

    private static byte[] compress(String text, String coding) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream o = coding.equals("gzip") ? new GZIPOutputStream(b)
                : new DeflaterOutputStream(b, new Deflater())) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    @Test
    void gzipAndDeflateAnswersAreDecoded() throws Exception {
        for (String c : new String[] {"gzip", "deflate"}) {
            coding = c;
            body = compress("{\"issuer\":\"https://as.example\"}", c);
            assertThat(http.get(uri(), Map.of(), Deadline.after(Duration.ofSeconds(10))).json().get("issuer")
                    .asString()).as(c).isEqualTo("https://as.example");
        }
    }

    @Test
    void aZipBombFailsWithTheSizeError() throws Exception {
        coding = "gzip";
        body = compress("{\"x\":\"" + "a".repeat(32 << 20) + "\"}", "gzip");
        assertThatThrownBy(() -> http.get(uri(), Map.of(), Deadline.after(Duration.ofSeconds(10))))
                .isInstanceOf(IOException.class).hasMessageContaining("larger than " + AuthHttp.MAX_BODY_BYTES);
    }

    @Test
    void anotherCodingIsNamed() {
        coding = "br";
        body = new byte[] {1, 2, 3};
        assertThatThrownBy(() -> http.get(uri(), Map.of(), Deadline.after(Duration.ofSeconds(10))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Content-Encoding br, which this client cannot decode");
    }
}
