package dev.loommcp.transport.unix;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSession;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One exchange of {@link JettyHttpClient}: sends Jetty's request, completes the future with the response once its
 * headers arrived (failing it when the header timeout fires first), and feeds the body to the JDK body subscriber
 * with back-pressure: one Jetty chunk per requested item, copied (Jetty's buffers are pooled). Cancelling the future
 * before the headers, or the subscription after them, aborts Jetty's exchange, which closes its connection.
 */
final class JettyExchange<T> {

    private final JettyHttpClient client;
    private final HttpRequest request;
    private final Request jetty;
    private final HttpResponse.BodyHandler<T> handler;
    private final Pending future = new Pending();
    /** Whether the request started going out: a failure before that is a connect failure. */
    private final AtomicBoolean begun = new AtomicBoolean();
    private volatile Scheduler.Task headerTimer;
    private volatile BodyBridge bridge;

    JettyExchange(JettyHttpClient client, HttpRequest request, Request jetty, HttpResponse.BodyHandler<T> handler) {
        this.client = client;
        this.request = request;
        this.jetty = jetty;
        this.handler = handler;
    }

    /** The future of the response. */
    CompletableFuture<HttpResponse<T>> future() {
        return future;
    }

    /** Fails the exchange when no response headers arrived within {@code timeout}. */
    void headerTimeout(Duration timeout) {
        headerTimer = client.schedule(() -> {
            if (!future.isDone()) {
                java.net.http.HttpTimeoutException e = client.headerTimeout();
                future.completeExceptionally(e);
                jetty.abort(e);
            }
        }, timeout);
    }

    void send() {
        jetty.onRequestBegin(r -> begun.set(true));
        jetty.onResponseContentSource(this::onContentSource);
        jetty.onResponseSuccess(this::onSuccess);
        jetty.send(this::onComplete);
    }

    /** The headers arrived, and Jetty hands the body's source: build the response and start the body. */
    private void onContentSource(Response response, Content.Source source) {
        if (future.isDone()) {
            source.fail(new CancellationException("exchange already ended"));
            return;
        }
        respond(response, source);
    }

    /** A response Jetty completed without handing a content source (no body): answer it with an empty one. */
    private void onSuccess(Response response) {
        if (bridge == null && !future.isDone()) {
            respond(response, null);
        }
    }

    private void respond(Response response, Content.Source source) {
        Scheduler.Task t = headerTimer;
        if (t != null) {
            t.cancel();
        }
        HttpHeaders headers = headersOf(response);
        int status = response.getStatus();
        HttpResponse.BodySubscriber<T> subscriber = handler.apply(new Info(status, headers));
        BodyBridge b = new BodyBridge(subscriber, source);
        bridge = b;
        subscriber.onSubscribe(b);
        subscriber.getBody().whenComplete((body, failure) -> {
            if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(new Answer<>(request, status, headers, body));
            }
        });
        if (future.isCancelled()) {
            b.cancel();
        }
    }

    private void onComplete(Result result) {
        Scheduler.Task t = headerTimer;
        if (t != null) {
            t.cancel();
        }
        if (!result.isFailed()) {
            BodyBridge b = bridge;
            if (b == null && !future.isDone()) {
                // neither a content source nor success reached us: should not happen; never leave the caller hanging
                future.completeExceptionally(new IOException("the exchange with " + client.origin()
                        + " ended without a response"));
            }
            return;
        }
        Throwable failure = result.getFailure();
        if (!future.isDone()) {
            future.completeExceptionally(!begun.get() && !client.isShutdown()
                    ? client.connectFailure(failure) : asIo(failure));
        }
        BodyBridge b = bridge;
        if (b != null) {
            b.failed(asIo(failure));
        }
    }

    private static Throwable asIo(Throwable failure) {
        return failure instanceof IOException || failure instanceof CancellationException ? failure
                : new IOException(failure);
    }

    private static HttpHeaders headersOf(Response response) {
        Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (HttpField f : response.getHeaders()) {
            map.computeIfAbsent(f.getName(), k -> new ArrayList<>()).add(f.getValue() == null ? "" : f.getValue());
        }
        return HttpHeaders.of(map, (name, value) -> true);
    }

    /** The body of a request the transport built: its bytes, or {@code null} for none. */
    static byte[] bodyOf(HttpRequest request) {
        Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
        if (publisher.isEmpty() || publisher.get().contentLength() == 0) {
            return "POST".equalsIgnoreCase(request.method()) || "PUT".equalsIgnoreCase(request.method())
                    ? new byte[0] : null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Void> done = new CompletableFuture<>();
        publisher.get().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] b = new byte[item.remaining()];
                item.get(b);
                out.write(b, 0, b.length);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        // the transport's bodies are byte arrays, published at once on the subscribing thread
        if (!done.isDone()) {
            throw new IllegalArgumentException("only request bodies published at once are supported");
        }
        done.join();
        return out.toByteArray();
    }

    /** The future handed to the transport: cancelling it aborts Jetty's exchange. */
    private final class Pending extends CompletableFuture<HttpResponse<T>> {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            jetty.abort(new CancellationException("exchange cancelled"));
            return cancelled;
        }
    }

    /**
     * Feeds Jetty's content source to the body subscriber: a chunk per requested item, in one drain loop at a time
     * (a request from the reader and Jetty's demand callback may race); at most one demand outstanding.
     */
    private final class BodyBridge implements Flow.Subscription {
        private final HttpResponse.BodySubscriber<T> subscriber;
        private final Content.Source source;
        private final AtomicLong requested = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        private final AtomicBoolean done = new AtomicBoolean();
        private final AtomicBoolean demanding = new AtomicBoolean();

        BodyBridge(HttpResponse.BodySubscriber<T> subscriber, Content.Source source) {
            this.subscriber = subscriber;
            this.source = source;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                finish(new IllegalArgumentException("non-positive request: " + n));
                return;
            }
            requested.getAndUpdate(r -> r + n < 0 ? Long.MAX_VALUE : r + n);
            drain();
        }

        @Override
        public void cancel() {
            if (done.compareAndSet(false, true)) {
                CancellationException why = new CancellationException("response body closed");
                if (source != null) {
                    source.fail(why);
                }
                jetty.abort(why);
            }
        }

        /** The exchange failed after the headers: the reader learns it at once. */
        void failed(Throwable failure) {
            finish(failure);
        }

        private void finish(Throwable failure) {
            if (done.compareAndSet(false, true)) {
                subscriber.onError(failure);
            }
        }

        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            do {
                pump();
            } while (wip.decrementAndGet() != 0);
        }

        private void pump() {
            while (!done.get() && requested.get() > 0) {
                if (source == null) {
                    if (done.compareAndSet(false, true)) {
                        subscriber.onComplete();
                    }
                    return;
                }
                Content.Chunk chunk = source.read();
                if (chunk == null) {
                    if (demanding.compareAndSet(false, true)) {
                        source.demand(() -> {
                            demanding.set(false);
                            drain();
                        });
                    }
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    finish(asIo(chunk.getFailure()));
                    return;
                }
                boolean last = chunk.isLast();
                ByteBuffer b = chunk.getByteBuffer();
                byte[] copy = new byte[b.remaining()];
                b.get(copy);
                chunk.release();
                if (copy.length > 0) {
                    requested.decrementAndGet();
                    subscriber.onNext(List.of(ByteBuffer.wrap(copy)));
                }
                if (last) {
                    if (done.compareAndSet(false, true)) {
                        subscriber.onComplete();
                    }
                    return;
                }
            }
        }
    }

    private record Info(int statusCode, HttpHeaders headers) implements HttpResponse.ResponseInfo {
        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }

    private record Answer<B>(HttpRequest request, int statusCode, HttpHeaders headers, B body)
            implements HttpResponse<B> {
        @Override
        public Optional<HttpResponse<B>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public Optional<SSLSession> sslSession() {
            return Optional.empty();
        }

        @Override
        public URI uri() {
            return request.uri();
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
