package dev.loommcp.auth;

import dev.loommcp.Deadline;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM for {@link LoopbackReceiverTest}: opens a receiver, runs one authorization, delivers its redirect to the
 * advertised redirect URI as a browser would, and prints {@code RECEIVED <query>} when the authorization got it.
 * Exits 0 on success.
 */
public final class LoopbackChild {

    private LoopbackChild() {
    }

    /**
     * Runs the check.
     *
     * @param args none
     * @throws Exception on any failure (non-zero exit)
     */
    public static void main(String[] args) throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(u -> { });
             HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            CompletableFuture<URI> got = CompletableFuture.supplyAsync(() -> {
                try {
                    return r.authorize(URI.create("https://as.example.com/a"), "s1",
                            Deadline.after(Duration.ofSeconds(30)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200); // the authorization is registered before its redirect arrives (a retry covers it)
            System.out.println("ADVERTISED " + r.redirectUri());
            for (int i = 0; i < 50 && !got.isDone(); i++) {
                HttpResponse<String> resp = http.send(HttpRequest.newBuilder(URI.create(r.redirectUri()
                        + "?code=c&state=s1")).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (resp.statusCode() == 200) {
                    break;
                }
                Thread.sleep(100);
            }
            System.out.println("RECEIVED " + got.get(10, TimeUnit.SECONDS).getRawQuery());
        }
    }
}
