package dev.loommcp.transport.http;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/** A client that hands everything to another; a test overrides what it wants to fake. */
abstract class DelegatingClient extends HttpClient {
    private final HttpClient d;

    DelegatingClient(HttpClient d) {
        this.d = d;
    }

    @Override
    public java.util.Optional<java.net.CookieHandler> cookieHandler() {
        return d.cookieHandler();
    }

    @Override
    public java.util.Optional<java.time.Duration> connectTimeout() {
        return d.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return d.followRedirects();
    }

    @Override
    public java.util.Optional<java.net.ProxySelector> proxy() {
        return d.proxy();
    }

    @Override
    public javax.net.ssl.SSLContext sslContext() {
        return d.sslContext();
    }

    @Override
    public javax.net.ssl.SSLParameters sslParameters() {
        return d.sslParameters();
    }

    @Override
    public java.util.Optional<java.net.Authenticator> authenticator() {
        return d.authenticator();
    }

    @Override
    public Version version() {
        return d.version();
    }

    @Override
    public java.util.Optional<java.util.concurrent.Executor> executor() {
        return d.executor();
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest r, HttpResponse.BodyHandler<T> h)
            throws java.io.IOException, InterruptedException {
        return d.send(r, h);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h) {
        return d.sendAsync(r, h);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r, HttpResponse.BodyHandler<T> h,
                                                            HttpResponse.PushPromiseHandler<T> p) {
        return d.sendAsync(r, h, p);
    }

    @Override
    public void shutdownNow() {
        d.shutdownNow();
    }

    @Override
    public boolean awaitTermination(java.time.Duration duration) throws InterruptedException {
        return d.awaitTermination(duration);
    }

    @Override
    public boolean isTerminated() {
        return d.isTerminated();
    }
}
