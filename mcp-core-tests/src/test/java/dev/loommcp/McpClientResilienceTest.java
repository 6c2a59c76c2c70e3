package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.policy.Budget;
import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.policy.RateLimit;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.policy.RetryPolicy;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client's resilience policy (issue 30 section 3) against scripted servers that fail, slow down and recover: the
 * rate limit's waits within the deadline and cancellation, the circuit breaker's window, opening, half-open probes and
 * what it counts, the budget's bounds, and the retry of idempotent requests within the deadline; in both eras.
 */
class McpClientResilienceTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** A transport failure with an HTTP status, as the HTTP transport's status exception carries it. */
    static final class StatusFailure extends McpTransportException {
        private final int status;

        StatusFailure(int status) {
            super("POST failed with HTTP " + status);
            this.status = status;
        }

        @Override
        public OptionalInt httpStatus() {
            return OptionalInt.of(status);
        }
    }

    /** Answers {@code method} by failing the request's exchange with {@code failure}, as a broken connection does. */
    static void failing(ScriptedTransport t, String method, java.util.function.Supplier<McpException> failure) {
        t.on(method, r -> {
            t.failSend(r.id(), failure.get());
            return ScriptedTransport.HOLD;
        });
    }

    /** A server whose {@code ping} fails while {@code down} holds, and answers otherwise; counts the pings. */
    static Consumer<ScriptedTransport> flaky(java.util.function.BooleanSupplier down, AtomicInteger pings) {
        return t -> t.on("ping", r -> {
            pings.incrementAndGet();
            if (down.getAsBoolean()) {
                t.failSend(r.id(), new McpTransportException("connection reset"));
                return ScriptedTransport.HOLD;
            }
            return Map.of();
        });
    }

    static UnaryOperator<McpClient.Builder> policy(ResiliencePolicy policy, List<CircuitStateChange> changes) {
        return b -> b.resilience(policy).listener(new McpClientListener() {
            @Override
            public void onCircuitStateChanged(CircuitStateChange change) {
                changes.add(change);
            }
        });
    }

    static UnaryOperator<McpClient.Builder> policy(ResiliencePolicy policy) {
        return b -> b.resilience(policy);
    }

    static ResiliencePolicy breaker(int failures, Duration window, Duration open) {
        return ResiliencePolicy.newBuilder().circuitBreaker(CircuitBreakerPolicy.of(failures, window, open)).build();
    }

    static RequestOptions timeout(long millis) {
        return RequestOptions.ofTimeout(Duration.ofMillis(millis));
    }

    // ------------------------------------------------------------------------------------------------ defaults

    @Test
    void aClientWithoutAPolicyHasNoBreakerAndRetriesNothing() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings), b -> b);
        assertThat(s.client().circuitState()).isEmpty();
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        assertThat(pings).hasValue(1);
        assertThatThrownBy(() -> McpClient.newBuilder(ScriptedTransport.create()).resilience(null))
                .isInstanceOf(NullPointerException.class).hasMessage("policy");
    }

    // ------------------------------------------------------------------------------------------------ rate limit

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCallWhoseTurnUnderTheRateComesAfterItsDeadlineFailsAtOnceNamingTheRateLimitAndSendsNothing(Mode mode)
            throws Exception {
        Session s = sessions.connected(mode, t -> { },
                policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.perSecond(0.2)).build()));
        s.client().ping();
        assertThatThrownBy(() -> s.client().ping(timeout(500))).isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("ping not sent").hasMessageContaining("rate limit")
                .hasMessageContaining("after the call's deadline");
        assertThat(s.server().requests("ping")).hasSize(1);
    }

    @Test
    void callsWaitForTheirTurnUnderTheRateAndGoOutNoCloserThanItsInterval() throws Exception {
        List<Long> sentAt = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(Mode.INLINE, t -> t.on("ping", r -> {
            sentAt.add(System.nanoTime());
            return Map.of();
        }), policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.newBuilder().callsPerSecond(20).burst(2)
                .build()).build()));
        for (int i = 0; i < 5; i++) {
            s.client().ping(timeout(5_000));
        }
        assertThat(sentAt).hasSize(5);
        // the burst lets two out back to back; from then on one per 50 ms (a lower bound: never faster than the rate)
        long spread = sentAt.get(4) - sentAt.get(0);
        assertThat(Duration.ofNanos(spread)).isGreaterThanOrEqualTo(Duration.ofMillis(140));
    }

    @Test
    void aCancelWhileWaitingForTheRateEndsTheWaitAndSendsNothing() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { },
                policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.perSecond(0.1)).build()));
        s.client().ping();
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Object> waiting = BackgroundCall.start("rate-waiter", () -> {
            s.client().ping(RequestOptions.newBuilder().timeout(Duration.ofSeconds(30)).token(token).build());
            return null;
        });
        Await.until("the caller parks for its turn", () -> waiting.thread().getState() == Thread.State.WAITING
                || waiting.thread().getState() == Thread.State.TIMED_WAITING);
        token.cancel("user gave up");
        assertThat(waiting.failure()).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining("ping not sent").hasMessageContaining("user gave up");
        assertThat(s.server().requests("ping")).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCallWaitsForAFreeConcurrencySlotWithinItsDeadline(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"),
                policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.concurrent(1)).build()));
        BackgroundCall<Object> first = BackgroundCall.start("first", () -> s.client().callTool("slow", Map.of()));
        JsonRpcMessage.Request held = s.server().awaitRequest("tools/call");
        assertThatThrownBy(() -> s.client().callTool("other", Map.of(), timeout(300)))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("tools/call not sent")
                .hasMessageContaining("concurrency limit");
        BackgroundCall<Object> third = BackgroundCall.start("third", () -> s.client().callTool("next", Map.of(),
                timeout(10_000)));
        Await.until("the third caller parks for a slot", () -> third.thread().getState() == Thread.State.WAITING
                || third.thread().getState() == Thread.State.TIMED_WAITING);
        assertThat(s.server().requests("tools/call")).hasSize(1);
        s.server().reply(held.id(), Map.of("content", List.of()));
        assertThat(first.result()).isNotNull();
        List<JsonRpcMessage.Request> calls = s.server().awaitRequests("tools/call", 2);
        s.server().reply(calls.get(1).id(), Map.of("content", List.of()));
        assertThat(third.result()).isNotNull();
    }

    @Test
    void aCancelWhileWaitingForAConcurrencySlotEndsTheWaitAndTheSlotStaysForTheOthers() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"),
                policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.concurrent(1)).build()));
        BackgroundCall<Object> first = BackgroundCall.start("first", () -> s.client().callTool("slow", Map.of()));
        JsonRpcMessage.Request held = s.server().awaitRequest("tools/call");
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Object> cancelled = BackgroundCall.start("cancelled", () -> s.client().callTool("x", Map.of(),
                RequestOptions.ofToken(token)));
        BackgroundCall<Object> patient = BackgroundCall.start("patient", () -> s.client().callTool("y", Map.of()));
        Await.until("both wait for the slot", () -> isParked(cancelled) && isParked(patient));
        token.cancel();
        assertThat(cancelled.failure()).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining("concurrency limit");
        s.server().reply(held.id(), Map.of("content", List.of()));
        first.result();
        JsonRpcMessage.Request next = s.server().awaitRequests("tools/call", 2).get(1);
        assertThat(next.params()).containsEntry("name", "y");
        s.server().reply(next.id(), Map.of("content", List.of()));
        assertThat(patient.result()).isNotNull();
    }

    @Test
    void theClientsCloseEndsAWaitForAPermitWithTheClosedException() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"),
                policy(ResiliencePolicy.newBuilder().rateLimit(RateLimit.concurrent(1)).build()));
        BackgroundCall<Object> first = BackgroundCall.start("first", () -> s.client().callTool("slow", Map.of()));
        s.server().awaitRequest("tools/call");
        BackgroundCall<Object> waiting = BackgroundCall.start("waiting", () -> s.client().callTool("x", Map.of()));
        Await.until("it waits for the slot", () -> isParked(waiting));
        s.client().close();
        assertThat(waiting.failure()).isInstanceOf(McpClosedException.class);
        assertThat(first.failure()).isInstanceOf(McpClosedException.class);
    }

    static boolean isParked(BackgroundCall<?> call) {
        Thread.State state = call.thread().getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    // ------------------------------------------------------------------------------------------------ breaker

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theBreakerOpensAfterNFailuresAndThenRefusesAtOnceSayingWhenItMayClose(Mode mode) throws Exception {
        AtomicInteger pings = new AtomicInteger();
        List<CircuitStateChange> changes = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(mode, flaky(() -> true, pings),
                policy(breaker(3, Duration.ofSeconds(30), Duration.ofSeconds(30)), changes));
        assertThat(s.client().circuitState()).contains(CircuitState.CLOSED);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        }
        assertThat(s.client().circuitState()).contains(CircuitState.OPEN);
        assertThatThrownBy(() -> s.client().ping()).isInstanceOfSatisfying(McpCircuitOpenException.class, e -> {
            assertThat(e).isInstanceOf(McpPolicyException.class).hasMessageContaining("ping not sent")
                    .hasMessageContaining("circuit breaker").hasMessageContaining("open after 3 failures");
            assertThat(e.state()).isEqualTo(CircuitState.OPEN);
            assertThat(e.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
            assertThat(e.getCause()).isInstanceOf(McpTransportException.class);
        });
        assertThat(pings).hasValue(3);
        Await.until("the listener heard the opening", () -> !changes.isEmpty());
        assertThat(changes.getFirst().previous()).isEqualTo(CircuitState.CLOSED);
        assertThat(changes.getFirst().state()).isEqualTo(CircuitState.OPEN);
        assertThat(changes.getFirst().cause()).isInstanceOf(McpTransportException.class);
    }

    @Test
    void aHalfOpenProbeThatSucceedsClosesTheBreaker() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        boolean[] down = {true};
        List<CircuitStateChange> changes = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> down[0], pings),
                policy(breaker(2, Duration.ofSeconds(30), Duration.ofMillis(200)), changes));
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        }
        down[0] = false; // the server recovered
        Await.until("the open duration passed", () -> s.client().circuitState().orElseThrow()
                == CircuitState.HALF_OPEN);
        s.client().ping(); // the probe
        assertThat(s.client().circuitState()).contains(CircuitState.CLOSED);
        s.client().ping();
        Await.until("three changes heard", () -> changes.size() == 3);
        assertThat(changes).extracting(CircuitStateChange::state)
                .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
    }

    @Test
    void aHalfOpenProbeThatFailsOpensTheBreakerAgainAndOtherCallsFailAtOnceWhileItIsInFlight() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        List<CircuitStateChange> changes = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(Mode.BLOCKING, t -> {
            flaky(() -> true, pings).accept(t);
            t.hold("tools/call");
        }, policy(breaker(1, Duration.ofSeconds(30), Duration.ofMillis(100)), changes));
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        Await.until("half-open", () -> s.client().circuitState().orElseThrow() == CircuitState.HALF_OPEN);
        // the probe hangs: the others are refused at once while it is in flight
        BackgroundCall<Object> probe = BackgroundCall.start("probe", () -> s.client().callTool("t", Map.of(),
                timeout(300)));
        s.server().awaitRequest("tools/call");
        assertThatThrownBy(() -> s.client().ping()).isInstanceOfSatisfying(McpCircuitOpenException.class,
                e -> assertThat(e.state()).isEqualTo(CircuitState.HALF_OPEN));
        assertThat(probe.failure()).isInstanceOf(McpTimeoutException.class); // a timeout counts: open again
        Await.until("the failed probe opened the breaker again", () -> changes.size() >= 3);
        assertThat(changes.subList(0, 3)).extracting(CircuitStateChange::state)
                .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.OPEN);
        assertThat(changes.get(2).cause()).isInstanceOf(McpTimeoutException.class);
        assertThat(pings).hasValue(1);
    }

    @Test
    void failuresOlderThanTheWindowNoLongerCount() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings),
                policy(breaker(2, Duration.ofMillis(1_000), Duration.ofSeconds(30))));
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        Thread.sleep(1_500); // the first failure slides out of the window
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        assertThat(s.client().circuitState()).contains(CircuitState.CLOSED);
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpTransportException.class);
        assertThat(s.client().circuitState()).contains(CircuitState.OPEN);
    }

    @Test
    void toolErrorsAndHttp429And503DoNotCountUnlessConfigured() throws Exception {
        AtomicInteger status = new AtomicInteger(503);
        Consumer<ScriptedTransport> script = t -> {
            t.on("tools/call", r -> Map.of("content", List.of(), "isError", true));
            failing(t, "ping", () -> new StatusFailure(status.getAndSet(status.get() == 503 ? 429 : 503)));
        };
        Session lenient = sessions.connected(Mode.INLINE, script,
                policy(breaker(1, Duration.ofSeconds(30), Duration.ofSeconds(30))));
        for (int i = 0; i < 3; i++) {
            assertThat(lenient.client().callTool("t", Map.of()).isError()).isTrue();
            assertThatThrownBy(() -> lenient.client().ping()).isInstanceOf(StatusFailure.class);
        }
        assertThat(lenient.client().circuitState()).contains(CircuitState.CLOSED);

        Session strictTools = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .circuitBreaker(CircuitBreakerPolicy.newBuilder().failureThreshold(1).countToolErrors(true).build())
                .build()));
        strictTools.client().callTool("t", Map.of());
        assertThat(strictTools.client().circuitState()).contains(CircuitState.OPEN);

        Session strictStatus = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .circuitBreaker(CircuitBreakerPolicy.newBuilder().failureThreshold(1).countOverloaded(true).build())
                .build()));
        assertThatThrownBy(() -> strictStatus.client().ping()).isInstanceOf(StatusFailure.class);
        assertThat(strictStatus.client().circuitState()).contains(CircuitState.OPEN);
    }

    @Test
    void cancellationsRpcErrorsAndOtherStatusesAreCountedAsTheyShouldBe() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> {
            t.hold("tools/call");
            t.on("prompts/get", r -> new dev.loommcp.jsonrpc.JsonRpcError(-32602, "no such prompt", null));
            failing(t, "ping", () -> new StatusFailure(500));
        }, policy(breaker(1, Duration.ofSeconds(30), Duration.ofSeconds(30))));
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Object> cancelled = BackgroundCall.start("cancelled", () -> s.client().callTool("t",
                Map.of(), RequestOptions.ofToken(token)));
        s.server().awaitRequest("tools/call");
        token.cancel();
        assertThat(cancelled.failure()).isInstanceOf(McpCancelledException.class);
        assertThatThrownBy(() -> s.client().getPrompt("p", Map.of())).isInstanceOf(McpRpcException.class);
        assertThat(s.client().circuitState()).contains(CircuitState.CLOSED); // neither a cancel nor an answer counts
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(StatusFailure.class);
        assertThat(s.client().circuitState()).contains(CircuitState.OPEN); // a 500 does
    }

    // ------------------------------------------------------------------------------------------------ budget

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theToolCallBudgetRefusesTheToolCallPastItBeforeSendingNamingTheNumbers(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content", List.of())),
                policy(ResiliencePolicy.newBuilder()
                        .budget(Budget.newBuilder().maxToolCallsPerSession(2).build()).build()));
        s.client().callTool("a", Map.of());
        s.client().callTool("b", Map.of());
        assertThatThrownBy(() -> s.client().callTool("c", Map.of()))
                .isInstanceOfSatisfying(McpBudgetExceededException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Budget.Kind.TOOL_CALLS_PER_SESSION);
                    assertThat(e.limit()).isEqualTo(2);
                    assertThat(e.actual()).isEqualTo(3);
                    assertThat(e).hasMessageContaining("tools/call not sent")
                            .hasMessageContaining("2 tool calls per session");
                });
        assertThatThrownBy(() -> s.client().callTool("c", Map.of())).isInstanceOf(McpBudgetExceededException.class);
        assertThat(s.server().requests("tools/call")).hasSize(2);
        assertThat(s.client().isConnected()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anInterceptorsOwnAnswersSpendNoBudgetAndItSeesTheGuardsRefusalFromProceed(Mode mode) throws Exception {
        // the documented order: the interceptors first, then the guard, then the wire
        List<Throwable> seenByInterceptor = new CopyOnWriteArrayList<>();
        dev.loommcp.intercept.McpInterceptor localForCached = chain -> {
            if (chain.request().toolName().orElse("").equals("cached")) {
                return dev.loommcp.intercept.McpResponse.of(
                        Map.of("content", List.of(Map.of("type", "text", "text", "from the interceptor"))));
            }
            try {
                return chain.proceed(chain.request());
            } catch (RuntimeException e) {
                seenByInterceptor.add(e);
                throw e;
            }
        };
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content", List.of())),
                b -> b.addInterceptor(localForCached).resilience(ResiliencePolicy.newBuilder()
                        .budget(Budget.newBuilder().maxToolCallsPerSession(1).build()).build()));
        for (int i = 0; i < 3; i++) {
            assertThat(s.client().callTool("cached", Map.of()).text()).isEqualTo("from the interceptor");
        }
        s.client().callTool("real", Map.of()); // the one tool call the budget allows
        assertThatThrownBy(() -> s.client().callTool("real", Map.of())).isInstanceOf(McpBudgetExceededException.class);
        assertThat(seenByInterceptor).singleElement().isInstanceOf(McpBudgetExceededException.class);
        assertThat(s.server().requests("tools/call")).hasSize(1);
        assertThat(s.client().callTool("cached", Map.of()).text()).isEqualTo("from the interceptor");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theToolCallBudgetCountsNoPingsOrListingsAndNeverRefusesThem(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content", List.of()))
                .on("tools/list", r -> Map.of("tools", List.of())), policy(ResiliencePolicy.newBuilder()
                        .budget(Budget.newBuilder().maxToolCallsPerSession(1).build()).build()));
        for (int i = 0; i < 3; i++) { // a health check's pings and a host's listings spend nothing
            s.client().ping();
            s.client().listTools(null, RequestOptions.DEFAULT);
        }
        s.client().callTool("a", Map.of());
        assertThatThrownBy(() -> s.client().callTool("b", Map.of())).isInstanceOf(McpBudgetExceededException.class);
        s.client().ping(); // the spent tool call budget refuses tool calls only
        s.client().listTools(null, RequestOptions.DEFAULT);
        assertThat(s.server().requests("ping")).hasSize(4);
        assertThat(s.server().requests("tools/call")).hasSize(1);
    }

    @Test
    void aPolicysMessagesNameTheServerByTheClientsServerNameWhenItHasOne() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("content", List.of())),
                b -> b.serverName("github").resilience(ResiliencePolicy.newBuilder()
                        .budget(Budget.newBuilder().maxToolCallsPerSession(1).build()).build()));
        s.client().callTool("a", Map.of());
        assertThatThrownBy(() -> s.client().callTool("b", Map.of())).isInstanceOf(McpBudgetExceededException.class)
                .hasMessageContaining("the budget of server 'github'").hasMessageNotContaining("scripted-server");
    }

    @Test
    void aResultLargerThanTheBudgetPerCallFailsItsCallAndTheNextSmallOneSucceeds() throws Exception {
        AtomicInteger size = new AtomicInteger(10_000);
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("content",
                List.of(Map.of("type", "text", "text", "x".repeat(size.get()))))), policy(ResiliencePolicy
                .newBuilder().budget(Budget.newBuilder().maxResultBytesPerCall(1_000).build()).build()));
        assertThatThrownBy(() -> s.client().callTool("big", Map.of()))
                .isInstanceOfSatisfying(McpBudgetExceededException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Budget.Kind.RESULT_BYTES_PER_CALL);
                    assertThat(e.limit()).isEqualTo(1_000);
                    assertThat(e.actual()).isGreaterThan(10_000);
                    assertThat(e).hasMessageContaining("1000 result bytes per call");
                });
        size.set(100);
        assertThat(s.client().callTool("small", Map.of()).content()).hasSize(1);
    }

    @Test
    void aResultOfExactlyTheBudgetPerCallPassesAndOneByteMoreFails() throws Exception {
        Map<String, Object> result = Map.of("content", List.of(Map.of("type", "text", "text", "x".repeat(300))));
        long size = dev.loommcp.internal.json.JsonSize.of(result);
        Consumer<ScriptedTransport> script = t -> t.on("tools/call", r -> result);
        Session exact = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .budget(Budget.newBuilder().maxResultBytesPerCall(size).maxResultBytesPerSession(size).build())
                .build()));
        exact.client().callTool("t", Map.of()); // exactly the bound, per call and per session: allowed
        assertThatThrownBy(() -> exact.client().callTool("t", Map.of()))
                .isInstanceOfSatisfying(McpBudgetExceededException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Budget.Kind.RESULT_BYTES_PER_SESSION);
                    assertThat(e.actual()).isEqualTo(size); // reached: refused before sending
                });
        assertThat(exact.server().requests("tools/call")).hasSize(1);

        Session under = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .budget(Budget.newBuilder().maxResultBytesPerCall(size - 1).build()).build()));
        assertThatThrownBy(() -> under.client().callTool("t", Map.of()))
                .isInstanceOfSatisfying(McpBudgetExceededException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Budget.Kind.RESULT_BYTES_PER_CALL);
                    assertThat(e.limit()).isEqualTo(size - 1);
                    assertThat(e.actual()).isEqualTo(size);
                });
    }

    @Test
    void theSessionsResultBytesFailTheResultThatPassesThemAndRefuseTheCallsAfter() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("content",
                List.of(Map.of("type", "text", "text", "x".repeat(600))))), policy(ResiliencePolicy.newBuilder()
                .budget(Budget.newBuilder().maxResultBytesPerSession(1_000).build()).build()));
        s.client().callTool("one", Map.of());
        assertThatThrownBy(() -> s.client().callTool("two", Map.of()))
                .isInstanceOfSatisfying(McpBudgetExceededException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Budget.Kind.RESULT_BYTES_PER_SESSION);
                    assertThat(e.actual()).isGreaterThan(1_200);
                });
        assertThatThrownBy(() -> s.client().callTool("three", Map.of()))
                .isInstanceOf(McpBudgetExceededException.class).hasMessageContaining("tools/call not sent");
        assertThat(s.server().requests("tools/call")).hasSize(2);
    }

    // ------------------------------------------------------------------------------------------------ retry

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anIdempotentRequestIsSentAgainAfterATransportFailureUntilItSucceeds(Mode mode) throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(mode, flaky(() -> pings.get() <= 2, pings), policy(ResiliencePolicy
                .newBuilder().retry(RetryPolicy.newBuilder().maxAttempts(3).initialBackoff(Duration.ofMillis(10))
                        .build()).build()));
        s.client().ping(timeout(10_000));
        assertThat(pings).hasValue(3);
    }

    @Test
    void http429And503AreLeftToTheTransportsOwnRetryAndOther5xxAndIoFailuresAreRetried() throws Exception {
        AtomicInteger status = new AtomicInteger();
        Session s = sessions.connected(Mode.BLOCKING, t -> failing(t, "ping", () -> new StatusFailure(status.get())),
                policy(ResiliencePolicy.newBuilder().retry(RetryPolicy.newBuilder().maxAttempts(2)
                        .initialBackoff(Duration.ofMillis(5)).build()).build()));
        int sent = 0;
        for (int code : new int[] {429, 503, 400, 404}) {
            status.set(code);
            assertThatThrownBy(() -> s.client().ping(timeout(10_000))).isInstanceOf(StatusFailure.class);
            assertThat(s.server().requests("ping")).as("HTTP %d sent once", code).hasSize(++sent);
        }
        for (int code : new int[] {500, 502, 504, 408}) {
            status.set(code);
            assertThatThrownBy(() -> s.client().ping(timeout(10_000))).isInstanceOf(StatusFailure.class);
            sent += 2;
            assertThat(s.server().requests("ping")).as("HTTP %d sent twice", code).hasSize(sent);
        }
    }

    @Test
    void retriesStopAtMaxAttemptsWithTheLastFailure() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings), policy(ResiliencePolicy.newBuilder()
                .retry(RetryPolicy.newBuilder().maxAttempts(2).initialBackoff(Duration.ofMillis(5)).build())
                .build()));
        assertThatThrownBy(() -> s.client().ping(timeout(10_000))).isInstanceOf(McpTransportException.class);
        assertThat(pings).hasValue(2);
    }

    @Test
    void aNonIdempotentToolIsNeverRetriedAndAnIdempotentOneOnlyWhenTheUserOptedIn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Consumer<ScriptedTransport> script = t -> {
            t.on("tools/list", r -> Map.of("tools", List.of(
                    Map.of("name", "plain", "inputSchema", Map.of("type", "object")),
                    Map.of("name", "idem", "inputSchema", Map.of("type", "object"),
                            "annotations", Map.of("idempotentHint", true)))));
            t.on("tools/call", r -> {
                if (calls.incrementAndGet() % 2 == 1) {
                    t.failSend(r.id(), new McpTransportException("connection reset"));
                    return ScriptedTransport.HOLD;
                }
                return Map.of("content", List.of());
            });
        };
        RetryPolicy.Builder retry = RetryPolicy.newBuilder().initialBackoff(Duration.ofMillis(5));
        Session noOptIn = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .retry(retry.build()).build()));
        noOptIn.client().listAllTools();
        assertThatThrownBy(() -> noOptIn.client().callTool("idem", Map.of())).isInstanceOf(McpTransportException.class);
        calls.set(0);
        assertThatThrownBy(() -> noOptIn.client().callTool("plain", Map.of()))
                .isInstanceOf(McpTransportException.class);
        assertThat(noOptIn.server().requests("tools/call")).hasSize(2);

        calls.set(0);
        Session optIn = sessions.connected(Mode.INLINE, script, policy(ResiliencePolicy.newBuilder()
                .retry(retry.retryIdempotentTools(true).build()).build()));
        optIn.client().listAllTools();
        assertThatThrownBy(() -> optIn.client().callTool("plain", Map.of())).isInstanceOf(McpTransportException.class);
        assertThat(optIn.server().requests("tools/call")).hasSize(1);
        calls.set(0);
        assertThat(optIn.client().callTool("idem", Map.of(), timeout(10_000)).content()).isEmpty();
        assertThat(optIn.server().requests("tools/call")).hasSize(3);
    }

    @Test
    void aRetryWhoseBackoffWouldPassTheDeadlineIsNotMadeAndTheLastFailureIsThrown() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings), policy(ResiliencePolicy.newBuilder()
                .retry(RetryPolicy.newBuilder().maxAttempts(5).initialBackoff(Duration.ofSeconds(2))
                        .build()).build()));
        long start = System.nanoTime();
        assertThatThrownBy(() -> s.client().ping(timeout(500))).isInstanceOf(McpTransportException.class);
        assertThat(pings).hasValue(1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2)); // bound, not speed
    }

    @Test
    void aCancelDuringTheBackoffEndsTheCallAndNoRetryFollows() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings), policy(ResiliencePolicy.newBuilder()
                .retry(RetryPolicy.newBuilder().maxAttempts(5).initialBackoff(Duration.ofSeconds(20))
                        .maxBackoff(Duration.ofSeconds(20)).build()).build()));
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Object> call = BackgroundCall.start("retrying", () -> {
            s.client().ping(RequestOptions.newBuilder().timeout(Duration.ofSeconds(60)).token(token).build());
            return null;
        });
        Await.until("the first attempt failed and the backoff began", () -> pings.get() == 1 && isParked(call));
        token.cancel("enough");
        assertThat(call.failure()).isInstanceOf(McpCancelledException.class).hasMessageContaining("enough");
        assertThat(call.failure().getSuppressed()).hasOnlyElementsOfType(McpTransportException.class);
        assertThat(pings).hasValue(1);
    }

    @Test
    void eachAttemptIsCountedByTheBreakerAndAnOpeningEndsTheRetries() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, flaky(() -> true, pings), policy(ResiliencePolicy.newBuilder()
                .circuitBreaker(CircuitBreakerPolicy.of(2, Duration.ofSeconds(30), Duration.ofSeconds(30)))
                .retry(RetryPolicy.newBuilder().maxAttempts(5).initialBackoff(Duration.ofMillis(5)).build())
                .build()));
        assertThatThrownBy(() -> s.client().ping(timeout(10_000))).isInstanceOfSatisfying(
                McpCircuitOpenException.class,
                e -> assertThat(e.getSuppressed()).hasOnlyElementsOfType(McpTransportException.class));
        assertThat(pings).hasValue(2);
    }

    @Test
    void aSessionExpiryIsRenewedAndResentOnceByTheEngineNotRetriedAgain() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING, t -> { }, policy(ResiliencePolicy.newBuilder()
                .retry(RetryPolicy.newBuilder().initialBackoff(Duration.ofMillis(5)).build()).build()));
        s.server().expireSession();
        s.client().ping();
        assertThat(s.server().requests("ping")).hasSize(2); // the expired one and the engine's resend
        assertThat(s.server().requests("initialize")).hasSize(2);
    }

    // ------------------------------------------------------------------------------------------------ modern era

    @Test
    void theModernEraGoesThroughTheSameGuardAndACachedAnswerIsNotCounted() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        Session s = sessions.connected(Mode.BLOCKING, t -> {
            McpClientModernEraTest.modern(t);
            t.on("resources/read", r -> McpClientModernEraTest.complete(Map.of("contents", List.of(),
                    "ttlMs", 60_000)));
            t.on("tools/list", r -> {
                if (lists.incrementAndGet() == 1) {
                    t.failSend(r.id(), new McpTransportException("connection reset"));
                    return ScriptedTransport.HOLD;
                }
                return McpClientModernEraTest.complete(Map.of("tools", List.of()));
            });
        }, b -> b.protocolMode(ProtocolMode.MODERN).resilience(ResiliencePolicy.newBuilder()
                .budget(Budget.newBuilder().maxToolCallsPerSession(1).build())
                .retry(RetryPolicy.newBuilder().initialBackoff(Duration.ofMillis(5)).build()).build()));
        s.client().listTools(null, timeout(10_000)); // retried once through the guard
        assertThat(lists).hasValue(2);
        s.client().readResource("file:///a");
        s.client().readResource("file:///a"); // from the cache: not sent
        assertThat(s.server().requests("resources/read")).hasSize(1);
        s.client().callTool("echo", Map.of()); // the one tool call of the budget
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOf(McpBudgetExceededException.class);
    }
}
