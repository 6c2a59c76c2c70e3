package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpException;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.McpVetoedException;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.internal.session.inbound.ClientHandlers;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import dev.loommcp.McpClient;
import dev.loommcp.Registration;

/**
 * Completes a multi round-trip request (MCP 2026-07-28 "Multi Round-Trip Requests"): a {@code tools/call},
 * {@code prompts/get} or {@code resources/read} the server answered with {@code resultType: "input_required"}.
 *
 * <p>Each round fulfils <em>every</em> entry of the answer's {@code inputRequests} through {@link ClientHandlers}
 * (the same handlers, checks and validation as the 2025 era's server-to-client requests), then sends the request
 * again through {@link Resend}: the original params, unchanged, plus {@code inputResponses} (the answers under the
 * server's keys) and {@code requestState} exactly as the server sent it (left out when it sent none). A round with
 * only a {@code requestState} is retried after {@link #STATE_ONLY_PAUSE}. It loops while the server answers
 * {@code input_required}, at most {@code maxRounds} retries, and returns the first complete result.
 *
 * <p>Handlers run on the calling thread, in the order of the server's keys, after every entry of the round was
 * parsed and checked (a malformed or unanswerable entry fails the call before anyone is asked anything). The call's
 * deadline and cancellation token hold across all rounds: when either fires while a handler runs, the calling thread
 * is interrupted and the call fails once the handler returns (a handler that ignores interrupts delays that).
 *
 * <p>Thread-safe: every call keeps its state on its own stack, so concurrent calls never see each other's
 * {@code inputResponses} or {@code requestState}.
 */
final class InputRounds {

    /** How long a round with a {@code requestState} and no {@code inputRequests} waits before it is retried. */
    static final Duration STATE_ONLY_PAUSE = Duration.ofMillis(250);

    /** Sends one retry of the request. */
    @FunctionalInterface
    interface Resend {
        /**
         * Sends the request again as a new request (new JSON-RPC id, fresh {@code _meta}, the call's deadline and
         * token) and returns its result object, whose {@code resultType} is not interpreted yet.
         *
         * @param params the params of the retry
         * @return the result object
         * @throws InterruptedException if interrupted while waiting
         */
        Map<String, Object> send(Map<String, Object> params) throws InterruptedException;
    }

    /** Waits before a {@code requestState}-only round is retried: a seam for tests. */
    @FunctionalInterface
    interface Pause {
        /**
         * Waits {@code pause}, less if the deadline comes first, returning early when the token fires.
         *
         * @param pause    how long
         * @param deadline the call's deadline
         * @param token    the call's token, or {@code null}
         * @throws InterruptedException if interrupted
         */
        void await(Duration pause, Deadline deadline, CancellationToken token) throws InterruptedException;
    }

    private final ClientHandlers handlers;
    private final int maxRounds;
    private final Supplier<String> describe;
    private final Pause pause;

    /**
     * Creates the loop.
     *
     * @param handlers  the client's handlers
     * @param maxRounds the most retries one call may take, at least 1
     * @param describe  names the server in error messages (for example the transport's {@code describe()})
     * @throws IllegalArgumentException if {@code maxRounds} is below 1
     */
    InputRounds(ClientHandlers handlers, int maxRounds, Supplier<String> describe) {
        this(handlers, maxRounds, describe, InputRounds::sleep);
    }

    /** As the public constructor, with the pause of {@code requestState}-only rounds replaced (tests). */
    InputRounds(ClientHandlers handlers, int maxRounds, Supplier<String> describe, Pause pause) {
        if (maxRounds < 1) {
            throw new IllegalArgumentException("maxRounds must be at least 1, was " + maxRounds);
        }
        this.handlers = Objects.requireNonNull(handlers, "handlers");
        this.maxRounds = maxRounds;
        this.describe = Objects.requireNonNull(describe, "describe");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    /**
     * Answers the server's input requests and retries until the request completes.
     *
     * @param method         the request's method ({@code tools/call}, {@code prompts/get} or {@code resources/read})
     * @param originalParams the params the caller's request was sent with (without {@code _meta} envelope keys the
     *                       session adds itself); never modified
     * @param inputRequired  the server's {@code input_required} result object
     * @param resend         sends one retry
     * @param deadline       the call's deadline ({@code null} means none)
     * @param token          the call's cancellation token, or {@code null}
     * @return the complete result object (its {@code resultType} is absent or {@code "complete"})
     * @throws McpInputRequiredException if an input cannot be answered (no handler: the capability was not declared;
     *                                   a handler failed or refused; an invalid answer) or the server still wanted
     *                                   input after {@code maxRounds} retries; nothing more is sent
     * @throws McpProtocolException      if an {@code input_required} result is malformed (neither
     *                                   {@code inputRequests} nor {@code requestState}, an unknown input method,
     *                                   malformed input params) or a retry's {@code resultType} is unknown
     * @throws McpTimeoutException       if the deadline passed, between rounds or while a handler ran
     * @throws McpCancelledException     if the token fired, between rounds or while a handler ran
     * @throws InterruptedException      if the calling thread was interrupted (by someone else than this loop)
     * @throws Error                    an {@link Error} thrown by a handler, unchanged (it ran on this thread)
     */
    Map<String, Object> complete(String method, Map<String, Object> originalParams, Map<String, Object> inputRequired,
                                 Resend resend, Deadline deadline, CancellationToken token)
            throws InterruptedException {
        return complete(method, originalParams, inputRequired, resend, deadline, token, false);
    }

    /**
     * As {@link #complete(String, Map, Map, Resend, Deadline, CancellationToken)}; with {@code acceptTask} a retry
     * answered with {@code resultType: "task"} (a {@code tools/call} of a client that declares the tasks extension:
     * the task is created once the input was given, MODERN-ERA.md C.5.7) ends the loop too and is returned as is.
     */
    Map<String, Object> complete(String method, Map<String, Object> originalParams, Map<String, Object> inputRequired,
                                 Resend resend, Deadline deadline, CancellationToken token, boolean acceptTask)
            throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(inputRequired, "inputRequired");
        Objects.requireNonNull(resend, "resend");
        Deadline limit = deadline == null ? Deadline.NONE : deadline;
        String what = what(method, originalParams);
        Map<String, Object> answer = inputRequired;
        for (int round = 1; ; round++) {
            Round r = read(what, round, answer);
            Map<String, Object> responses = null;
            if (r.inputs().isEmpty()) {
                live(what, round, limit, token);
                pause.await(STATE_ONLY_PAUSE, limit, token);
            } else {
                responses = new LinkedHashMap<>();
                for (Map.Entry<String, Input> e : r.inputs().entrySet()) {
                    live(what, round, limit, token);
                    responses.put(e.getKey(), answer(what, round, e.getKey(), e.getValue(), limit, token));
                }
            }
            live(what, round, limit, token);
            answer = resend.send(retryParams(originalParams, responses, r.state()));
            if (answer == null) {
                throw new McpProtocolException(what + ": the retry of input round " + round + " has no result");
            }
            Object type = answer.get("resultType");
            if (type == null || "complete".equals(type) || acceptTask && "task".equals(type)) {
                return answer;
            }
            if (!"input_required".equals(type)) {
                throw new McpProtocolException(what + ": the retry of input round " + round + " answered with "
                        + (type instanceof String ? "unknown resultType '" + type + "'"
                        : "a resultType that is " + JsonRpcCodec.kind(type) + ", not a string"));
            }
            if (round >= maxRounds) {
                throw new McpInputRequiredException(what + " still required input after " + maxRounds
                        + " rounds (the most this client allows: McpClient.Builder.maxInputRounds)", null);
            }
        }
    }

    /**
     * Answers a task's {@code inputRequests} (MODERN-ERA.md C.5.7: each entry like a standalone request) through the
     * same parsing, checks and handlers as a round of a multi round-trip request: every entry is parsed and checked
     * before any handler runs, then each handler runs on this thread in the server's order.
     *
     * @param what          names the task in messages
     * @param inputRequests the requests by key, as plain JSON
     * @param deadline      the limit ({@code null}: none)
     * @param token         the token, or {@code null}
     * @return the responses by key, in the server's order; empty for no requests
     * @throws McpInputRequiredException as {@link #complete} (no handler, a handler refused or failed)
     * @throws McpProtocolException      if an entry is malformed
     * @throws McpTimeoutException       if the deadline passed
     * @throws McpCancelledException     if the token fired
     * @throws InterruptedException      if the calling thread was interrupted
     */
    Map<String, Object> answerAll(String what, Map<String, Object> inputRequests, Deadline deadline,
                                  CancellationToken token) throws InterruptedException {
        Objects.requireNonNull(inputRequests, "inputRequests");
        Deadline limit = deadline == null ? Deadline.NONE : deadline;
        Map<String, Object> responses = new LinkedHashMap<>();
        if (inputRequests.isEmpty()) {
            return responses;
        }
        Round r = read(what, 1, Map.of("inputRequests", inputRequests));
        for (Map.Entry<String, Input> e : r.inputs().entrySet()) {
            live(what, 1, limit, token);
            responses.put(e.getKey(), answer(what, 1, e.getKey(), e.getValue(), limit, token));
        }
        return responses;
    }

    /** What the call is, for messages: the method, the tool or prompt name if any, and the server. */
    private String what(String method, Map<String, Object> params) {
        String name = params != null && params.get("name") instanceof String s ? " " + s : "";
        return method + name + " to server " + describe.get();
    }

    /** One entry of {@code inputRequests}, parsed and checked. */
    private record Input(String method, ClientHandlers.Prepared prepared) {
    }

    /** One {@code input_required} result: its inputs in the server's order, and its state. */
    private record Round(Map<String, Input> inputs, String state) {
    }

    private Round read(String what, int round, Map<String, Object> answer) {
        String where = what + ": input_required (round " + round + ")";
        Object rawInputs = answer.get("inputRequests");
        Object rawState = answer.get("requestState");
        if (rawState != null && !(rawState instanceof String)) {
            throw new McpProtocolException(where + " has a requestState that is " + JsonRpcCodec.kind(rawState)
                    + ", not a string");
        }
        if (rawInputs != null && !(rawInputs instanceof Map<?, ?>)) {
            throw new McpProtocolException(where + " has inputRequests that is " + JsonRpcCodec.kind(rawInputs)
                    + ", not an object");
        }
        Map<?, ?> requests = rawInputs == null ? Map.of() : (Map<?, ?>) rawInputs;
        if (requests.isEmpty() && rawState == null) {
            throw new McpProtocolException(where + " has neither inputRequests nor requestState");
        }
        Map<String, Input> inputs = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : requests.entrySet()) {
            String key = String.valueOf(e.getKey());
            inputs.put(key, input(where + ", input '" + key + "'", key, e.getValue()));
        }
        return new Round(inputs, (String) rawState);
    }

    @SuppressWarnings("unchecked")
    private Input input(String where, String key, Object request) {
        if (!(request instanceof Map<?, ?> map)) {
            throw new McpProtocolException(where + " is " + JsonRpcCodec.kind(request) + ", not an object");
        }
        if (!(map.get("method") instanceof String method)) {
            throw new McpProtocolException(where + " has no method");
        }
        if (!ClientHandlers.isClientMethod(method)) {
            throw new McpProtocolException(where + " asks for unknown method '" + method + "' (expected "
                    + ClientHandlers.ELICIT + ", " + ClientHandlers.SAMPLE + " or " + ClientHandlers.ROOTS + ")");
        }
        Object params = map.get("params");
        if (params != null && !(params instanceof Map<?, ?>)) {
            throw new McpProtocolException(where + " (" + method + ") has params that are "
                    + JsonRpcCodec.kind(params) + ", not an object");
        }
        if (!handlers.has(method)) {
            throw new McpInputRequiredException(where + " asks for " + method + ", but this client has no handler "
                    + "for it (so it did not declare the capability); not retried", null);
        }
        try {
            return new Input(method, handlers.prepare(method, (Map<String, Object>) params, null, key));
        } catch (ClientHandlers.NotDeclaredException e) {
            throw new McpInputRequiredException(where + " (" + method + "): " + e.getMessage() + "; not retried", e);
        } catch (McpProtocolException e) {
            throw new McpProtocolException(where + " (" + method + "): " + e.getMessage(), e);
        }
    }

    /** Runs one input's handler on this thread, interrupted if the deadline passes or the token fires meanwhile. */
    private Object answer(String what, int round, String key, Input input, Deadline deadline, CancellationToken token)
            throws InterruptedException {
        Object result = null;
        Exception failure = null;
        Watch.Fired fired;
        Watch watch = Watch.start(deadline, token);
        try {
            result = input.prepared().answer();
        } catch (Exception e) {
            failure = e;
        } finally {
            fired = watch.close();
        }
        String where = what + ": input '" + key + "' (" + input.method() + ", round " + round + ")";
        if (fired == Watch.Fired.CANCELLED) {
            throw new McpCancelledException(where + " cancelled while its handler ran: " + watch.reason());
        }
        if (fired == Watch.Fired.DEADLINE) {
            throw new McpTimeoutException(where + " timed out while its handler ran");
        }
        if (failure == null) {
            return result;
        }
        if (failure instanceof InterruptedException interrupted) {
            throw interrupted;
        }
        if (failure instanceof McpVetoedException || failure instanceof McpInterceptorException) {
            throw (McpException) failure; // a server-request interceptor refused or failed: the caller sees it as is
        }
        if (failure instanceof ClientHandlers.InvalidAnswerException) {
            throw new McpInputRequiredException(where + ": " + failure.getMessage() + "; not retried", failure);
        }
        throw new McpInputRequiredException(where + ": the handler refused or failed ("
                + failure.getClass().getSimpleName() + "); not retried", failure);
    }

    /** Fails the call if its token fired or its deadline passed. */
    private static void live(String what, int round, Deadline deadline, CancellationToken token) {
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(what + " cancelled in input round " + round + ": "
                    + token.reason().orElse("cancelled"));
        }
        dev.loommcp.internal.scope.Scope<?, ?> scope = dev.loommcp.internal.scope.RequestScope.current();
        if (scope != null && scope.isCancelled()) { // the request it runs in, or one that encloses it, has ended
            throw new McpCancelledException(what + " cancelled in input round " + round + ": " + scope.endedBy());
        }
        if (deadline.isExpired()) {
            throw new McpTimeoutException(what + " timed out in input round " + round);
        }
    }

    /**
     * The retry's params: the original ones (any {@code inputResponses} or {@code requestState} of their own left
     * out), plus this round's answers and the server's state. A new map every round: nothing is carried over.
     */
    static Map<String, Object> retryParams(Map<String, Object> original, Map<String, Object> responses,
                                           String state) {
        Map<String, Object> params = original == null ? new LinkedHashMap<>() : new LinkedHashMap<>(original);
        params.remove("inputResponses");
        params.remove("requestState");
        if (responses != null) {
            params.put("inputResponses", responses);
        }
        if (state != null) {
            params.put("requestState", state); // the very string received: never parsed, never rebuilt
        }
        return params;
    }

    /** The real pause: a timed wait that the token cuts short. */
    static void sleep(Duration pause, Deadline deadline, CancellationToken token) throws InterruptedException {
        long nanos = Math.min(pause.toNanos(), deadline.remainingNanos());
        if (nanos <= 0) {
            return;
        }
        CountDownLatch cancelled = new CountDownLatch(1);
        Registration registration = token == null ? () -> { } : token.onCancel(cancelled::countDown);
        try {
            cancelled.await(nanos, TimeUnit.NANOSECONDS);
        } finally {
            registration.close();
        }
    }

    /**
     * Interrupts the calling thread when the deadline passes or the token fires while a handler runs; on
     * {@link #close()} it stops, and clears the interrupt it caused so none is left on the caller.
     */
    private static final class Watch {

        enum Fired { CANCELLED, DEADLINE }

        private final Thread caller = Thread.currentThread();
        private final ReentrantLock lock = new ReentrantLock();
        private final CountDownLatch closed = new CountDownLatch(1);
        private boolean open = true;
        private Fired fired;
        /** Why a {@link Fired#CANCELLED} watch fired: the token's reason, or what ended the request's scope. */
        private volatile String reason;
        private boolean wasInterrupted;
        private Registration registration;
        private Registration scopeRegistration;

        static Watch start(Deadline deadline, CancellationToken token) {
            Watch w = new Watch();
            if (token != null) {
                w.registration = token.onCancel(() -> w.fire(Fired.CANCELLED, token.reason().orElse("cancelled")));
            }
            // the request's scope: its end (the outer request this call was made in ended) interrupts the handler
            // too, and the deadline thread is one of its forks
            dev.loommcp.internal.scope.Scope<?, ?> scope = dev.loommcp.internal.scope.RequestScope.current();
            if (scope != null) {
                w.scopeRegistration = scope.onCancel(() -> w.fire(Fired.CANCELLED, scope.endedBy()));
            }
            if (!deadline.isNone()) {
                Runnable watch = () -> {
                    try {
                        if (!w.closed.await(deadline.remainingNanos(), TimeUnit.NANOSECONDS)) {
                            w.fire(Fired.DEADLINE, null);
                        }
                    } catch (InterruptedException e) {
                        // the request's scope ended (it then fired the watch itself), or the client closed
                    }
                };
                Thread t = scope == null ? null : scope.start("input-deadline", watch, false);
                if (t == null) {
                    McpThreads.start("input-deadline", watch);
                }
            }
            return w;
        }

        /** Why it fired as cancelled (set before {@link #fired} is read by the caller). */
        String reason() {
            return reason;
        }

        private void fire(Fired why, String because) {
            lock.lock();
            try {
                if (open && fired == null) {
                    reason = because;
                    fired = why;
                    wasInterrupted = caller.isInterrupted();
                    caller.interrupt();
                }
            } finally {
                lock.unlock();
            }
        }

        /** Stops watching; returns what fired, or {@code null}. Runs on the calling thread. */
        Fired close() {
            lock.lock();
            try {
                open = false;
                if (fired != null && !wasInterrupted) {
                    Thread.interrupted(); // the interrupt was ours: the caller gets an exception instead
                }
            } finally {
                lock.unlock();
            }
            closed.countDown();
            if (registration != null) {
                registration.close();
            }
            if (scopeRegistration != null) {
                scopeRegistration.close();
            }
            return fired;
        }
    }
}
