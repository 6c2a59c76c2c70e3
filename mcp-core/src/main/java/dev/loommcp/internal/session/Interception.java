package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.Deadline;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpContext;
import dev.loommcp.McpException;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.Registration;
import dev.loommcp.RequestOptions;
import dev.loommcp.intercept.McpConnection;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;
import dev.loommcp.intercept.OutgoingRequest;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Tool;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The chain of a client's {@link McpInterceptor}s around its outgoing requests. A wire path ({@link LegacyWire},
 * {@link ModernRequests}) that has one runs each request through {@link #run} inside the request's scope, after it
 * opened the scope and checked the client is connected, and before anything is sent; a client without interceptors
 * has none ({@code null}), and its calls take the direct path (no allocation, no frame).
 *
 * <p><b>The seam after the chain.</b> The chain ends in one {@link WireStep}: the wire path's rest of the request
 * (envelope, routing, corrective retry, input rounds, renewal, the send). A policy that must sit between the
 * interceptors and the wire (a rate limit or breaker: an interceptor that answers without sending consumes no rate)
 * wraps that step, here, for both wire paths at once.
 *
 * <p>The chain object is index-based (one small object per interceptor per call, as OkHttp's), no lambda per call.
 * Thread-safe: the interceptors are fixed at build time.
 */
final class Interception {

    /**
     * The rest of a request after the last interceptor: what the wire path does to send it. One instance per wire
     * path (stateless); what the request needs of its scope is in the {@link Step}.
     */
    interface WireStep {
        /**
         * Sends the request as the chain left it and returns the raw result.
         *
         * @param request the request
         * @param step    the request's scope, start and id observer
         * @return the raw result
         * @throws InterruptedException if the calling thread is interrupted
         */
        Object send(OutgoingRequest request, Step step) throws InterruptedException;
    }

    /**
     * How deep calls of this client may nest through its chain on one thread (an interceptor whose nested call of
     * its own client runs the chain again, and so on): a guard against an interceptor that calls its client for every
     * request, which would recurse until the stack overflows. Two levels are common (an interceptor that lists tools
     * before a call), eight are plenty.
     */
    static final int MAX_NESTING = 8;

    private final McpInterceptor[] interceptors;
    private final McpConnection connection;
    private final ToolCatalog tools;
    /** This client's chain runs on this thread how many times, one inside another ({@link #MAX_NESTING}). */
    private final ThreadLocal<int[]> nesting = ThreadLocal.withInitial(() -> new int[1]);

    private Interception(McpInterceptor[] interceptors, McpConnection connection, ToolCatalog tools) {
        this.interceptors = interceptors;
        this.connection = connection;
        this.tools = tools;
    }

    /** The chain of {@code interceptors}, or {@code null} when there are none (the direct path). */
    static Interception of(List<McpInterceptor> interceptors, McpConnection connection, ToolCatalog tools) {
        return interceptors.isEmpty() ? null
                : new Interception(interceptors.toArray(McpInterceptor[]::new), connection, tools);
    }

    /**
     * Runs one request through the chain, in the request's scope (open on this thread).
     *
     * @param method  the method
     * @param params  the params as the caller made them
     * @param options the call's options
     * @param scope   the request's scope
     * @param start   when the call started
     * @param onSent  told each JSON-RPC id just before the request goes out, or {@code null}
     * @param wire    the wire path's rest of the request
     * @return the raw result
     * @throws InterruptedException if the calling thread is interrupted
     */
    Object run(String method, Map<String, Object> params, RequestOptions options, Scope<?, ?> scope, Deadline start,
               Consumer<RequestId> onSent, WireStep wire) throws InterruptedException {
        int[] depth = nesting.get();
        if (depth[0] >= MAX_NESTING) {
            throw new IllegalStateException(method + " not sent: the interceptor chain of " + connection.server()
                    + " was entered " + MAX_NESTING + " times on this thread, one call inside another: an interceptor"
                    + " calls its own client for each request it intercepts (let it pass the requests it makes"
                    + " itself, for example those whose McpContext.parent() is present)");
        }
        depth[0]++;
        try {
            OutgoingRequest untouched = OutgoingRequest.of(method, params, options);
            Step first = new Step(this, 0, untouched, untouched, params, scope, start, onSent, wire);
            McpResponse response = first.proceed(first.request);
            return ServerResponse.rawOf(response);
        } finally {
            depth[0]--;
        }
    }

    private static RuntimeException failed(String method, int index, McpInterceptor interceptor, Throwable failure) {
        return new McpInterceptorException(method, index + 1, interceptor, failure);
    }

    /** One position in the chain of one request. */
    static final class Step implements McpInterceptor.Chain {
        private final Interception chain;
        private final int index;
        private final OutgoingRequest request;
        /** The request as the caller made it: sent with the caller's own params when no interceptor replaced it. */
        private final OutgoingRequest untouched;
        /** The params the caller made, before any interceptor (the 2026 era's cache decides with them). */
        final Map<String, Object> original;
        final Scope<?, ?> scope;
        final Deadline start;
        final Consumer<RequestId> onSent;
        private final WireStep wire;
        /** What the last {@link #proceed} threw: it passes the interceptor that called it unchanged. */
        private Throwable passed;
        /** What the last {@link #proceed} returned: a response other than it is the interceptor's own answer. */
        private McpResponse returned;

        Step(Interception chain, int index, OutgoingRequest request, OutgoingRequest untouched,
             Map<String, Object> original, Scope<?, ?> scope, Deadline start, Consumer<RequestId> onSent,
             WireStep wire) {
            this.chain = chain;
            this.index = index;
            this.request = request;
            this.untouched = untouched;
            this.original = original;
            this.scope = scope;
            this.start = start;
            this.onSent = onSent;
            this.wire = wire;
        }

        @Override
        public OutgoingRequest request() {
            return request;
        }

        /**
         * The params to send for {@code sent}, the request the last interceptor passed on: the caller's own map when
         * it is the request the chain started with (the read-only view interceptors saw would cost a wrapper per
         * member as it is written), else its params.
         */
        Map<String, Object> paramsOf(OutgoingRequest sent) {
            return sent == untouched ? original : sent.params().orElse(null);
        }

        @Override
        public McpContext context() {
            return McpContext.current().orElseThrow(() -> new IllegalStateException(
                    "the chain of " + request.method() + " is used outside its request's thread"));
        }

        @Override
        public McpConnection connection() {
            return chain.connection;
        }

        @Override
        public Optional<Tool> tool() {
            return request.toolName().flatMap(chain.tools::tool);
        }

        @Override
        public McpResponse proceed(OutgoingRequest next) throws InterruptedException {
            Objects.requireNonNull(next, "request");
            if (!next.method().equals(request.method())) {
                throw new IllegalArgumentException("an interceptor may not change the method: " + request.method()
                        + " became " + next.method());
            }
            try {
                McpResponse response = proceedUnchecked(next);
                returned = response;
                return response;
            } catch (RuntimeException | InterruptedException | Error e) {
                passed = e;
                throw e;
            }
        }

        private McpResponse proceedUnchecked(OutgoingRequest next) throws InterruptedException {
            McpInterceptor[] all = chain.interceptors;
            if (index == all.length) {
                return new ServerResponse(next.method(), wire.send(next, this));
            }
            McpInterceptor interceptor = all[index];
            Step inner = new Step(chain, index + 1, next, untouched, original, scope, start, onSent, wire);
            McpResponse response;
            try {
                response = interceptor.intercept(inner);
            } catch (McpException | InterruptedException | Error e) {
                throw e;
            } catch (RuntimeException e) {
                if (e == inner.passed) {
                    throw e; // the rest of the chain failed, not this interceptor: passed on unchanged
                }
                throw failed(next.method(), index, interceptor, e);
            } catch (Exception e) { // a checked exception smuggled out (sneaky throws)
                throw failed(next.method(), index, interceptor, e);
            }
            if (response == null) {
                throw failed(next.method(), index, interceptor, new NullPointerException("intercept returned null"));
            }
            if (response != inner.returned && !(response instanceof ServerResponse)) {
                try { // its own answer: checked here, so that a bad one is known as this interceptor's
                    LocalAnswers.check(next.method(), response);
                } catch (RuntimeException e) {
                    throw failed(next.method(), index, interceptor, e);
                }
            }
            return response;
        }

        @Override
        public <T> T await(CompletableFuture<T> future) throws InterruptedException {
            Objects.requireNonNull(future, "future");
            String method = request.method();
            CompletableFuture<Void> wake = new CompletableFuture<>();
            future.whenComplete((v, e) -> wake.complete(null));
            CancellationToken token = request.options().token().orElse(null);
            Registration tokenWatch = token == null ? null : token.onCancel(() -> wake.complete(null));
            Registration scopeWatch = scope.onCancel(() -> wake.complete(null));
            Deadline deadline = scope.deadline();
            try {
                while (true) {
                    if (future.isDone()) {
                        return future.join();
                    }
                    if (token != null && token.isCancelled()) {
                        throw new McpCancelledException(method + " cancelled while an interceptor waited: "
                                + token.reason().orElse("cancelled"));
                    }
                    if (scope.isCancelled()) {
                        throw new McpCancelledException(method + " cancelled while an interceptor waited: "
                                + scope.endedBy());
                    }
                    if (deadline.isExpired()) {
                        throw new McpTimeoutException(method + " timed out while an interceptor waited");
                    }
                    try {
                        if (deadline.isNone()) {
                            wake.get();
                        } else {
                            wake.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
                        }
                    } catch (TimeoutException | ExecutionException e) {
                        // the loop says which
                    }
                }
            } catch (CompletionException e) {
                throw e;
            } finally {
                if (tokenWatch != null) {
                    tokenWatch.close();
                }
                scopeWatch.close();
            }
        }
    }
}
