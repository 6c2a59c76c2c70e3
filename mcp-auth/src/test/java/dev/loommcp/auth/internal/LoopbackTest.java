package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The loopback receiver's server: bound where it advertises, concurrent connections, bounded reads. */
@ExtendWith(LeakCheck.class)
class LoopbackTest {

    final List<URI> shown = new CopyOnWriteArrayList<>();

    @Test
    void itListensExactlyOnTheAddressItAdvertises() throws Exception {
        Loopback lb = Loopback.open(shown::add);
        try {
            URI cb = lb.redirectUri();
            assertThat(cb.getHost()).isEqualTo("127.0.0.1");
            assertThat(lb.boundAddress().getAddress()).isEqualTo(InetAddress.getByName(cb.getHost()));
            assertThat(lb.boundAddress().getPort()).isEqualTo(cb.getPort());
        } finally {
            lb.close();
        }
    }

    @Test
    void aConnectionThatNeverEndsItsRequestHeadIsClosed() throws Exception {
        Loopback lb = Loopback.open(shown::add, 300);
        try (Socket stalled = new Socket("127.0.0.1", lb.redirectUri().getPort())) {
            stalled.getOutputStream().write("GET /callback?st".getBytes(StandardCharsets.US_ASCII));
            stalled.setSoTimeout(30_000);
            InputStream in = stalled.getInputStream();
            assertThat(in.read()).isEqualTo(-1); // closed by the receiver, unanswered
        } finally {
            lb.close();
        }
    }

    @Test
    void withEverySlotTakenANewConnectionReplacesTheOldest() throws Exception {
        Loopback lb = Loopback.open(shown::add);
        List<Socket> stalled = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
             HttpClient http = HttpClient.newHttpClient()) {
            for (int i = 0; i < Loopback.MAX_CONNECTIONS + 2; i++) {
                Socket s = new Socket("127.0.0.1", lb.redirectUri().getPort());
                s.getOutputStream().write("GET /".getBytes(StandardCharsets.US_ASCII));
                stalled.add(s);
            }
            Future<URI> result = pool.submit(() -> lb.authorize(URI.create("https://as.example.com/a"), "s1",
                    Deadline.after(Duration.ofSeconds(60))));
            await().atMost(Duration.ofSeconds(30)).until(() -> shown.size() == 1);
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create(lb.redirectUri()
                    + "?code=real&state=s1")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(result.get(30, TimeUnit.SECONDS).getQuery()).isEqualTo("code=real&state=s1");
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
            lb.close();
        }
    }

    @Test
    void otherMethodsAndMalformedRequestsAreRefused() throws Exception {
        Loopback lb = Loopback.open(shown::add);
        try {
            assertThat(raw(lb, "POST /callback?state=s HTTP/1.1\r\nContent-Length: 0\r\n\r\n")).startsWith(
                    "HTTP/1.1 404 ");
            assertThat(raw(lb, "GARBAGE\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            assertThat(raw(lb, "GET /callback?a=%zz%%20 HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            assertThat(raw(lb, "GET / HTTP/1.1\r\n" + "X: " + "y".repeat(Loopback.MAX_HEAD_BYTES) + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 431 ");
        } finally {
            lb.close();
        }
    }

    private static String raw(Loopback lb, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", lb.redirectUri().getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
