package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27 item 5 over Streamable HTTP: answers with {@code Content-Encoding: gzip} or {@code deflate} (zlib or raw)
 * are decoded, JSON (whole first or chunked) and SSE (as its pieces arrive), bounded by the message limit after
 * decoding; another coding is named in the error; an uncompressed body is handed on as the client's own buffers.
 */
@ExtendWith(LeakCheck.class)
class HttpCompressionTest extends ServerTestBase {

    private final CountDownLatch progressSeen = new CountDownLatch(1);

    @AfterEach
    void release() {
        progressSeen.countDown();
    }

    static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(b)) {
            g.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    static byte[] deflate(String text, boolean zlib) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(b, new Deflater(Deflater.DEFAULT_COMPRESSION, !zlib))) {
            d.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }


    private static void send(HttpExchange ex, String type, String coding, byte[] body, boolean chunked)
            throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        if (coding != null) {
            ex.getResponseHeaders().set("Content-Encoding", coding);
        }
        ex.sendResponseHeaders(200, chunked ? 0 : body.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
        }
    }

    private static String done(Object id) {
        return result(id, "{\"content\":[{\"type\":\"text\",\"text\":\"decoded\"}]}");
    }

    private McpClient client(HttpTransport.Builder b) {
        return McpClient.newBuilder(b.build()).protocolMode(ProtocolMode.LEGACY).build();
    }

    private static String text(CallToolResult r) {
        return ((dev.loommcp.schema.TextContent) r.content().get(0)).text();
    }

    @ParameterizedTest(name = "chunked {0}")
    @ValueSource(booleans = {false, true})
    void aGzipJsonAnswerIsDecoded(boolean chunked) throws Exception {
        serveRequests((req, ex) -> send(ex, "application/json", "gzip", gzip(done(req.rpcId())), chunked));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")))) {
            client.connect();
            // a near deadline takes a fixed-length answer whole, inside the client's send; a far one reads it as it
            // comes: both decode
            assertThat(text(client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(20)))))
                    .isEqualTo("decoded");
            assertThat(text(client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofHours(1)))))
                    .isEqualTo("decoded");
        }
    }

    @ParameterizedTest(name = "zlib {0}")
    @ValueSource(booleans = {true, false})
    void aDeflateJsonAnswerIsDecodedZlibWrappedOrRaw(boolean zlib) throws Exception {
        serveRequests((req, ex) -> send(ex, "application/json", "deflate", deflate(done(req.rpcId()), zlib), false));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")))) {
            client.connect();
            assertThat(text(client.callTool("t", Map.of()))).isEqualTo("decoded");
        }
    }

    @Test
    void aGzipSseStreamIsDecodedAsItsPiecesArrive() throws Exception {
        serveRequests((req, ex) -> {
            Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) Json.read(req.body())).get("params");
            Object token = ((Map<?, ?>) params.get("_meta")).get("progressToken");
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.getResponseHeaders().set("Content-Encoding", "gzip");
            ex.sendResponseHeaders(200, 0);
            try (GZIPOutputStream g = new GZIPOutputStream(ex.getResponseBody(), true)) {
                String progress = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                        + "{\"progressToken\":" + Json.write(token) + ",\"progress\":1}}";
                g.write(("id: 1\ndata: " + progress + "\n\n").getBytes(StandardCharsets.UTF_8));
                g.flush(); // a sync flush: this event's bytes go out, the stream goes on
                // the response comes only once the client decoded the first event: not decoded as it arrives, the
                // call would time out
                if (!progressSeen.await(20, TimeUnit.SECONDS)) {
                    return;
                }
                g.write(("id: 2\ndata: " + done(req.rpcId()) + "\n\n").getBytes(StandardCharsets.UTF_8));
            }
        });
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")))) {
            client.connect();
            CallToolResult r = client.callTool("t", Map.of(), RequestOptions.newBuilder()
                    .timeout(Duration.ofSeconds(15)).progressListener(p -> progressSeen.countDown()).build());
            assertThat(text(r)).isEqualTo("decoded");
        }
    }

    @Test
    void aZipBombFailsWithTheSizeError() throws Exception {
        // 64 MiB of one repeated character, about 64 KiB compressed, against a 1 MiB limit
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"x\":\"" + "a".repeat(64 << 20) + "\"}}";
        byte[] bomb = gzip(huge);
        huge = null;
        assertThat(bomb.length).isLessThan(1 << 20);
        serveRequests((req, ex) -> send(ex, "application/json", "gzip", bomb, false));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")).maxMessageSize(1 << 20))) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of()))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessageContaining("larger than the maximum of 1048576 bytes");
            client.ping(); // the client stays usable
        }
    }

    @Test
    void aZipBombInAnSseStreamFailsWithTheSizeError() throws Exception {
        byte[] bomb = gzip("data: " + "a".repeat(32 << 20) + "\n\n");
        serveRequests((req, ex) -> send(ex, "text/event-stream", "gzip", bomb, true));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")).maxMessageSize(1 << 20))) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of()))
                    .isInstanceOf(McpProtocolException.class).hasMessageContaining("1048576");
        }
    }

    @Test
    void decodingStopsWithinOneChunkOfTheLimit() throws Exception {
        StreamBody body = new StreamBody(false, "gzip");
        body.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        body.onNext(List.of(ByteBuffer.wrap(gzip("z".repeat(8 << 20)))));
        body.onComplete();
        int limit = 100_000;
        long decoded = 0;
        ByteBuffer b;
        while (decoded <= limit && (b = body.read(TimeUnit.SECONDS.toNanos(5))) != null) {
            decoded += b.remaining();
        }
        assertThat(decoded).isGreaterThan(limit).isLessThanOrEqualTo(limit + StreamBody.DECODED_CHUNK);
        body.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"br", "zstd", "gzip, br"})
    void anotherCodingIsNamedInTheError(String coding) throws Exception {
        serveRequests((req, ex) -> send(ex, req.body().contains("\"sse\"") ? "text/event-stream" : "application/json",
                coding, "\u0001\u0002binary".getBytes(StandardCharsets.UTF_8), false));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")))) {
            client.connect();
            for (String name : List.of("json", "sse")) {
                assertThatThrownBy(() -> client.callTool(name, Map.of()))
                        .isInstanceOf(McpTransportException.class)
                        .hasMessageContaining("the server answered with Content-Encoding " + coding
                                + ", which this client cannot decode");
            }
        }
    }

    @Test
    void aGzipErrorBodyIsDecodedForItsExcerpt() throws Exception {
        serveRequests((req, ex) -> {
            byte[] page = gzip("<html><head><title>503 Over Capacity</title></head></html>");
            ex.getResponseHeaders().set("Content-Type", "text/html");
            ex.getResponseHeaders().set("Content-Encoding", "gzip");
            ex.sendResponseHeaders(502, page.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(page);
            }
        });
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")))) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of())).isInstanceOf(McpHttpStatusException.class)
                    .hasMessageEndingWith("the server said: 503 Over Capacity");
        }
    }

    @Test
    void anUncompressedBodyIsHandedOnAsTheClientsOwnBuffers() throws Exception {
        StreamBody body = new StreamBody(false, null);
        body.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        ByteBuffer chunk = ByteBuffer.wrap("{}".getBytes(StandardCharsets.UTF_8));
        body.onNext(List.of(chunk));
        assertThat(body.read(TimeUnit.SECONDS.toNanos(5))).as("no copy").isSameAs(chunk);
        assertThat(body.encoded()).isFalse();
        body.close();
    }
}
