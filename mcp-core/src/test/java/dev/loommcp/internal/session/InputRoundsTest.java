package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.CancellationToken;
import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.internal.concurrent.McpThreadLeakCheck;
import dev.loommcp.internal.json.Json;
import dev.loommcp.ClientConfigs;
import dev.loommcp.McpClient;
import dev.loommcp.internal.session.inbound.ClientHandlers;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Root;
import dev.loommcp.Deadline;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MRTR loop (MCP 2026-07-28 "Multi Round-Trip Requests", issue 10 item 4): real handlers (lambdas) answer the
 * server's input requests through {@link ClientHandlers}; a fake {@link InputRounds.Resend} plays the server and
 * records the params of every retry.
 */
@ExtendWith(McpThreadLeakCheck.class)
class InputRoundsTest {

    private static final Map<String, Object> CALL = Map.of("name", "deploy", "arguments", Map.of("env", "prod"));
    private static final Map<String, Object> COMPLETE = Map.of("content", List.of(Map.of("type", "text",
            "text", "Deployed to prod")), "resultType", "complete");
    private static final Map<String, Object> CONFIRM_SCHEMA = Map.of("type", "object",
            "properties", Map.of("confirm", Map.of("type", "boolean")), "required", List.of("confirm"));

    // ------------------------------------------------------------------------------------------------ helpers

    private static ClientHandlers handlers(Consumer<McpClient.Builder> setup) {
        McpClient.Builder b = McpClient.newBuilder(ScriptedTransport.create(ScriptedTransport.Mode.INLINE));
        setup.accept(b);
        return new ClientHandlers(ClientConfigs.of(b));
    }

    private static InputRounds rounds(Consumer<McpClient.Builder> setup) {
        return new InputRounds(handlers(setup), 10, () -> "fake-server");
    }

    private static Consumer<McpClient.Builder> elicit(ElicitationHandler h) {
        return b -> b.elicitationHandler(h, true);
    }

    /** A server that answers each retry with the next scripted result and records the params it got. */
    private static class FakeServer implements InputRounds.Resend {
        final List<Map<String, Object>> sent = new CopyOnWriteArrayList<>();
        private final Deque<Map<String, Object>> answers;

        /** Each answer is a {@code Map<String, Object>}; the last one repeats. */
        @SuppressWarnings("unchecked")
        FakeServer(Object... answers) {
            this.answers = new ArrayDeque<>();
            for (Object a : answers) {
                this.answers.add((Map<String, Object>) a);
            }
        }

        @Override
        public Map<String, Object> send(Map<String, Object> params) {
            sent.add(params);
            Map<String, Object> next = answers.size() > 1 ? answers.poll() : answers.peek();
            return next;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> inputResponses(int retry) {
            return (Map<String, Object>) sent.get(retry).get("inputResponses");
        }
    }

    private static Map<String, Object> inputRequired(Map<String, Object> requests, String state) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("resultType", "input_required");
        if (requests != null) {
            r.put("inputRequests", requests);
        }
        if (state != null) {
            r.put("requestState", state);
        }
        return r;
    }

    private static Map<String, Object> request(String method, Map<String, Object> params) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("method", method);
        if (params != null) {
            r.put("params", params);
        }
        return r;
    }

    private static Map<String, Object> confirm() {
        return request("elicitation/create", Map.of("message", "Deploy to prod?", "requestedSchema", CONFIRM_SCHEMA,
                "mode", "form"));
    }

    private static Map<String, Object> sampling() {
        return request("sampling/createMessage", Map.of("messages", List.of(Map.of("role", "user",
                "content", Map.of("type", "text", "text", "Capital of France?"))), "maxTokens", 20));
    }

    private static Map<String, Object> complete(InputRounds rounds, Map<String, Object> inputRequired,
                                                FakeServer server) throws InterruptedException {
        return rounds.complete("tools/call", CALL, inputRequired, server, Deadline.after(Duration.ofSeconds(30)),
                CancellationToken.create());
    }

    // ------------------------------------------------------------------------------------------------ one round

    @Test
    void anElicitationIsAnsweredAndTheRequestRetriedWithTheOriginalParamsTheAnswerAndTheState() throws Exception {
        List<ElicitRequest> seen = new ArrayList<>();
        InputRounds rounds = rounds(elicit(r -> {
            seen.add(r);
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        FakeServer server = new FakeServer(COMPLETE);
        Map<String, Object> original = new LinkedHashMap<>(CALL);

        Map<String, Object> result = rounds.complete("tools/call", original,
                inputRequired(Map.of("confirm", confirm()), "opaque-state-for-prod"), server,
                Deadline.after(Duration.ofSeconds(30)), null);

        assertThat(result).isSameAs(COMPLETE);
        assertThat(server.sent).containsExactly(Map.of("name", "deploy", "arguments", Map.of("env", "prod"),
                "inputResponses", Map.of("confirm", Map.of("action", "accept", "content", Map.of("confirm", true))),
                "requestState", "opaque-state-for-prod"));
        assertThat(original).isEqualTo(CALL); // never modified
        assertThat(seen).singleElement().satisfies(r -> {
            assertThat(r.message()).isEqualTo("Deploy to prod?");
            assertThat(r.requestedSchema()).isEqualTo(CONFIRM_SCHEMA);
            assertThat(r.isUrlMode()).isFalse();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"opaque", "Zürich ✓ 🚀 日本", "{\"a\": 1, \"b\": [true, null]}", " padded  ",
            "quote \" backslash \\ newline \n tab \t nul \u0000 \\u0041", "=?base64?eA==?=", ""})
    void theRequestStateIsEchoedAsTheVeryStringReceived(String state) throws Exception {
        InputRounds rounds = rounds(elicit(r -> ElicitResult.accept(Map.of("confirm", true))));
        FakeServer server = new FakeServer(COMPLETE);
        // the state as it arrives: decoded from the wire by the JSON reader
        String wire = "{\"resultType\":\"input_required\",\"inputRequests\":{\"confirm\":"
                + Json.write(confirm()) + "},\"requestState\":" + Json.write(state) + "}";
        @SuppressWarnings("unchecked")
        Map<String, Object> received = (Map<String, Object>) Json.read(wire);
        Object receivedState = received.get("requestState");

        complete(rounds, received, server);

        assertThat(server.sent.get(0).get("requestState")).isSameAs(receivedState).isEqualTo(state);
        assertThat(Json.write(server.sent.get(0).get("requestState"))).isEqualTo(Json.write(state));
    }

    @Test
    void noRequestStateIsSentWhenTheServerSentNone() throws Exception {
        InputRounds rounds = rounds(elicit(r -> ElicitResult.accept(Map.of("confirm", true))));
        FakeServer server = new FakeServer(COMPLETE);
        complete(rounds, inputRequired(Map.of("confirm", confirm()), null), server);
        assertThat(server.sent.get(0)).containsOnlyKeys("name", "arguments", "inputResponses");
    }

    @Test
    void everyInputIsAnsweredBeforeTheRetryUnderItsOwnKey() throws Exception {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        InputRounds rounds = rounds(b -> {
            b.elicitationHandler(r -> {
                events.add("elicit");
                return ElicitResult.accept(Map.of("confirm", false));
            }, true);
            b.samplingHandler(r -> {
                events.add("sample");
                return CreateMessageResult.ofText("model-x", "Paris");
            });
            b.rootsHandler(() -> {
                events.add("roots");
                return List.of(Root.of("file:///work", "work"));
            });
        });
        FakeServer server = new FakeServer(COMPLETE) {
            @Override
            public Map<String, Object> send(Map<String, Object> params) {
                events.add("send");
                return super.send(params);
            }
        };
        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("q1", confirm());
        requests.put("q2", sampling());
        requests.put("q3", request("roots/list", null));

        complete(rounds, inputRequired(requests, null), server);

        assertThat(events).containsExactly("elicit", "sample", "roots", "send");
        assertThat(server.inputResponses(0)).containsExactly(
                Map.entry("q1", Map.of("action", "accept", "content", Map.of("confirm", false))),
                Map.entry("q2", Map.of("role", "assistant", "model", "model-x",
                        "content", Map.of("type", "text", "text", "Paris"))),
                Map.entry("q3", Map.of("roots", List.of(Map.of("uri", "file:///work", "name", "work")))));
    }

    @Test
    void aDeclineIsAnAnswerAndSoIsANullElicitationResult() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        InputRounds rounds = rounds(elicit(r -> calls.getAndIncrement() == 0 ? ElicitResult.decline() : null));
        FakeServer server = new FakeServer(inputRequired(Map.of("again", confirm()), null), COMPLETE);
        complete(rounds, inputRequired(Map.of("confirm", confirm()), null), server);
        assertThat(server.inputResponses(0)).isEqualTo(Map.of("confirm", Map.of("action", "decline")));
        assertThat(server.inputResponses(1)).isEqualTo(Map.of("again", Map.of("action", "decline")));
    }

    @Test
    void aUrlModeAcceptOnlyRecordsConsentAndIsRetriedWithTheState() throws Exception {
        List<ElicitRequest> seen = new ArrayList<>();
        InputRounds rounds = rounds(elicit(r -> {
            seen.add(r);
            return ElicitResult.accept(Map.of("leak", "never sent")); // content is not for URL mode
        }));
        FakeServer server = new FakeServer(COMPLETE);
        complete(rounds, inputRequired(Map.of("login", request("elicitation/create", Map.of("mode", "url",
                "message", "Sign in", "url", "https://example.test/auth?x=1"))), "st"), server);
        assertThat(seen.get(0).url()).isEqualTo("https://example.test/auth?x=1");
        assertThat(server.sent.get(0)).containsEntry("inputResponses", Map.of("login", Map.of("action", "accept")))
                .containsEntry("requestState", "st");
    }

    @Test
    void elicitationDefaultsAreFilledInAsInThe2025Era() throws Exception {
        InputRounds rounds = rounds(b -> {
            b.elicitationHandler(r -> ElicitResult.accept(Map.of()), true);
            b.applyElicitationDefaults(true);
        });
        FakeServer server = new FakeServer(COMPLETE);
        complete(rounds, inputRequired(Map.of("form", request("elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object", "properties",
                        Map.of("color", Map.of("type", "string", "default", "blue")))))), null), server);
        assertThat(server.inputResponses(0)).isEqualTo(Map.of("form",
                Map.of("action", "accept", "content", Map.of("color", "blue"))));
    }

    @Test
    void theCallersOwnInputKeysNeverReachARetry() throws Exception {
        InputRounds rounds = rounds(elicit(r -> ElicitResult.cancel()));
        FakeServer server = new FakeServer(COMPLETE);
        Map<String, Object> original = Map.of("name", "t", "requestState", "forged", "inputResponses", Map.of());
        rounds.complete("tools/call", original, inputRequired(Map.of("k", confirm()), null), server,
                Deadline.NONE, null);
        assertThat(server.sent.get(0)).isEqualTo(Map.of("name", "t",
                "inputResponses", Map.of("k", Map.of("action", "cancel"))));
    }

    // ------------------------------------------------------------------------------------------------ several rounds

    @Test
    void eachRoundIsRetriedWithFreshParamsThatCarryNothingOfThePreviousRound() throws Exception {
        InputRounds rounds = new InputRounds(handlers(elicit(r -> ElicitResult.accept(Map.of("confirm", true)))),
                10, () -> "srv", (pause, deadline, token) -> { });
        FakeServer server = new FakeServer(
                inputRequired(Map.of("second", confirm()), null),
                inputRequired(null, "third-state"),
                COMPLETE);
        Map<String, Object> result = rounds.complete("tools/call", CALL, inputRequired(Map.of("first", confirm()),
                "first-state"), server, Deadline.after(Duration.ofSeconds(30)), null);

        assertThat(result).isSameAs(COMPLETE);
        assertThat(server.sent).hasSize(3);
        assertThat(server.sent.get(0)).containsEntry("requestState", "first-state")
                .containsOnlyKeys("name", "arguments", "inputResponses", "requestState");
        assertThat(server.inputResponses(0)).containsOnlyKeys("first");
        assertThat(server.sent.get(1)).containsOnlyKeys("name", "arguments", "inputResponses");
        assertThat(server.inputResponses(1)).containsOnlyKeys("second");
        assertThat(server.sent.get(2)).isEqualTo(Map.of("name", "deploy", "arguments", Map.of("env", "prod"),
                "requestState", "third-state"));
        assertThat(server.sent.get(0)).isNotSameAs(server.sent.get(1));
    }

    @Test
    void theRoundsAreCappedAndNothingMoreIsSent() throws Exception {
        InputRounds rounds = new InputRounds(handlers(elicit(r -> ElicitResult.decline())), 3, () -> "srv-x");
        FakeServer server = new FakeServer(inputRequired(Map.of("k", confirm()), "s"));
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("k", confirm()), "s"), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("tools/call deploy")
                .hasMessageContaining("srv-x")
                .hasMessageContaining("still required input after 3 rounds");
        assertThat(server.sent).hasSize(3);
    }

    @Test
    void aStateOnlyRoundWaitsThePauseBeforeItIsRetried() throws Exception {
        List<Duration> pauses = new CopyOnWriteArrayList<>();
        InputRounds rounds = new InputRounds(handlers(b -> { }), 10, () -> "srv",
                (pause, deadline, token) -> pauses.add(pause));
        FakeServer server = new FakeServer(COMPLETE) {
            @Override
            public Map<String, Object> send(Map<String, Object> params) {
                assertThat(pauses).as("paused before the retry").hasSize(1);
                return super.send(params);
            }
        };
        complete(rounds, inputRequired(null, "busy, come back"), server);
        assertThat(pauses).containsExactly(InputRounds.STATE_ONLY_PAUSE);
        assertThat(InputRounds.STATE_ONLY_PAUSE).isEqualTo(Duration.ofMillis(250));
        assertThat(server.sent.get(0)).isEqualTo(Map.of("name", "deploy", "arguments", Map.of("env", "prod"),
                "requestState", "busy, come back"));
    }

    @Test
    void theRealPauseWaitsAndThenRetries() throws Exception {
        FakeServer server = new FakeServer(COMPLETE);
        long start = System.nanoTime();
        complete(rounds(b -> { }), inputRequired(null, "s"), server);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(InputRounds.STATE_ONLY_PAUSE.toNanos());
        assertThat(server.sent).hasSize(1);
    }

    @Test
    void aTokenFiringAroundTheStateOnlyPauseCancelsTheCallWithoutARetry() throws Exception {
        CancellationToken token = CancellationToken.create();
        Thread canceller = Thread.ofVirtual().start(() -> token.cancel("user gave up"));
        FakeServer server = new FakeServer(COMPLETE);
        try {
            assertThatThrownBy(() -> rounds(b -> { }).complete("tools/call", CALL, inputRequired(null, "s"), server,
                    Deadline.NONE, token))
                    .isInstanceOf(McpCancelledException.class).hasMessageContaining("user gave up");
        } finally {
            canceller.join();
        }
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aStateOnlyRoundPastTheDeadlineTimesOutWithoutARetry() {
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> rounds(b -> { }).complete("tools/call", CALL, inputRequired(null, "s"), server,
                Deadline.after(Duration.ofMillis(50)), null))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("tools/call deploy");
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aRetryWithoutResultTypeIsComplete() throws Exception {
        Map<String, Object> legacyShaped = Map.of("content", List.of());
        FakeServer server = new FakeServer(legacyShaped);
        assertThat(complete(rounds(elicit(r -> ElicitResult.decline())), inputRequired(Map.of("k", confirm()),
                null), server)).isSameAs(legacyShaped);
    }

    @Test
    void aRetryWithAnUnknownResultTypeIsAProtocolError() {
        FakeServer server = new FakeServer(Map.of("resultType", "task", "taskId", "t1"));
        assertThatThrownBy(() -> complete(rounds(elicit(r -> ElicitResult.decline())),
                inputRequired(Map.of("k", confirm()), null), server))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("unknown resultType 'task'");
    }

    // ------------------------------------------------------------------------------------------------ malformed

    @Test
    void anInputRequiredResultWithNeitherRequestsNorStateIsAProtocolError() {
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> complete(rounds(b -> { }), inputRequired(null, null), server))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("neither inputRequests nor requestState");
        assertThatThrownBy(() -> complete(rounds(b -> { }), inputRequired(Map.of(), null), server))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("neither inputRequests nor requestState");
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aRequestStateThatIsNotAStringIsAProtocolError() {
        Map<String, Object> answer = new LinkedHashMap<>(inputRequired(null, null));
        answer.put("requestState", Map.of("a", 1));
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> complete(rounds(b -> { }), answer, server))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("requestState");
        assertThat(server.sent).isEmpty();
    }

    @Test
    void anUnknownInputMethodIsAProtocolErrorNamingItAndTheKeyAndNothingIsAsked() {
        AtomicBoolean asked = new AtomicBoolean();
        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("ok", confirm());
        requests.put("odd", request("tasks/get", Map.of("taskId", "t")));
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> complete(rounds(elicit(r -> {
            asked.set(true);
            return ElicitResult.decline();
        })), inputRequired(requests, null), server))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'odd'").hasMessageContaining("unknown method 'tasks/get'");
        assertThat(asked).as("no handler runs for a round that cannot be answered").isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void malformedInputParamsAreAProtocolErrorNamingTheKey() {
        FakeServer server = new FakeServer(COMPLETE);
        InputRounds rounds = rounds(b -> {
            b.elicitationHandler(r -> ElicitResult.decline(), true);
            b.samplingHandler(r -> CreateMessageResult.ofText("m", "t"));
        });
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("bare",
                request("elicitation/create", null)), null), server))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'bare'").hasMessageContaining("elicitation/create without params");
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("bad", request("sampling/createMessage",
                Map.of("messages", "not a list", "maxTokens", 5))), null), server))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'bad'").hasMessageContaining("malformed sampling/createMessage params");
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("nomethod", Map.of("params", Map.of())),
                null), server))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("'nomethod'")
                .hasMessageContaining("no method");
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("url", request("elicitation/create",
                Map.of("mode", "url", "message", "m"))), null), server))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("'url'")
                .hasMessageContaining("without a url");
        assertThat(server.sent).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ unanswerable

    @Test
    void anInputWithoutAHandlerFailsNamingMethodAndKeyBeforeAnyHandlerRuns() {
        AtomicBoolean asked = new AtomicBoolean();
        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("confirm", confirm());
        requests.put("llm", sampling());
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> complete(rounds(elicit(r -> {
            asked.set(true);
            return ElicitResult.decline();
        })), inputRequired(requests, "s"), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'llm'").hasMessageContaining("sampling/createMessage")
                .hasMessageContaining("no handler");
        assertThat(asked).isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void urlModeThatWasNotDeclaredIsNotAnswered() {
        AtomicBoolean asked = new AtomicBoolean();
        FakeServer server = new FakeServer(COMPLETE);
        InputRounds rounds = rounds(b -> b.elicitationHandler(r -> {
            asked.set(true);
            return ElicitResult.accept(null);
        }, false));
        assertThatThrownBy(() -> complete(rounds, inputRequired(Map.of("login", request("elicitation/create",
                Map.of("mode", "url", "message", "m", "url", "https://example.test"))), null), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'login'").hasMessageContaining("URL-mode elicitation was not declared");
        assertThat(asked).isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aRefusedSamplingIsNotRetriedAndCarriesTheCause() {
        java.io.IOException refusal = new java.io.IOException("user said no");
        FakeServer server = new FakeServer(COMPLETE);
        SamplingHandler refuse = r -> {
            throw refusal;
        };
        assertThatThrownBy(() -> complete(rounds(b -> b.samplingHandler(refuse)),
                inputRequired(Map.of("llm", sampling()), "s"), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'llm'").hasMessageContaining("sampling/createMessage")
                .hasMessageContaining("refused").hasCause(refusal);
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aRefusedRootsListIsNotRetriedAndCarriesTheCause() {
        IllegalStateException refusal = new IllegalStateException("no roots for you");
        FakeServer server = new FakeServer(COMPLETE);
        RootsHandler refuse = () -> {
            throw refusal;
        };
        assertThatThrownBy(() -> complete(rounds(b -> b.rootsHandler(refuse)),
                inputRequired(Map.of("where", request("roots/list", Map.of())), null), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'where'").hasMessageContaining("roots/list").hasCause(refusal);
        assertThat(server.sent).isEmpty();
    }

    @Test
    void anInvalidHandlerAnswerIsNotSent() {
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> complete(rounds(b -> b.samplingHandler(r -> null)),
                inputRequired(Map.of("llm", sampling()), null), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'llm'").hasMessageContaining("returned no result");
        assertThatThrownBy(() -> complete(rounds(elicit(r -> new ElicitResult("maybe", null, null))),
                inputRequired(Map.of("k", confirm()), null), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'k'").hasMessageContaining("not accept, decline or cancel");
        assertThatThrownBy(() -> complete(rounds(elicit(r -> ElicitResult.accept(Map.of("nested", Map.of())))),
                inputRequired(Map.of("k", confirm()), null), server))
                .isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("not a string, number, boolean or list of strings");
        assertThat(server.sent).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ deadline, token

    @Test
    void theDeadlinePassingWhileAHandlerRunsInterruptsItAndTimesTheCallOut() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        InputRounds rounds = rounds(elicit(r -> {
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS); // a person who never answers
                return ElicitResult.accept(Map.of("confirm", true));
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        }));
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("confirm", confirm()),
                null), server, Deadline.after(Duration.ofMillis(200)), CancellationToken.create()))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("'confirm'").hasMessageContaining("timed out while its handler ran");
        assertThat(interrupted.getCount()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).as("the loop's own interrupt is not left behind").isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aHandlerThatIgnoresTheInterruptStillTimesOutAndTheLoopsInterruptIsNotLeftBehind() {
        InputRounds rounds = rounds(elicit(r -> {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // leaves the interrupt status set
            }
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        FakeServer server = new FakeServer(COMPLETE);
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("confirm", confirm()),
                null), server, Deadline.after(Duration.ofMillis(200)), null))
                .isInstanceOf(McpTimeoutException.class);
        assertThat(Thread.interrupted()).as("the loop's own interrupt is cleared").isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void theTokenFiringWhileAHandlerRunsInterruptsItAndCancelsTheCall() throws Exception {
        CancellationToken token = CancellationToken.create();
        CountDownLatch started = new CountDownLatch(1);
        InputRounds rounds = rounds(b -> b.samplingHandler(r -> {
            started.countDown();
            new CountDownLatch(1).await(30, TimeUnit.SECONDS); // a model that never answers
            return CreateMessageResult.ofText("m", "late");
        }));
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                started.await();
                token.cancel("stop");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        FakeServer server = new FakeServer(COMPLETE);
        try {
            assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("llm", sampling()),
                    "s"), server, Deadline.NONE, token))
                    .isInstanceOf(McpCancelledException.class)
                    .hasMessageContaining("'llm'").hasMessageContaining("stop");
        } finally {
            canceller.join();
        }
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(server.sent).isEmpty();
    }

    @Test
    void aTokenCancelledDuringARetryStopsTheNextRound() throws Exception {
        CancellationToken token = CancellationToken.create();
        AtomicInteger asked = new AtomicInteger();
        InputRounds rounds = rounds(elicit(r -> {
            asked.incrementAndGet();
            return ElicitResult.decline();
        }));
        FakeServer server = new FakeServer(inputRequired(Map.of("k", confirm()), null)) {
            @Override
            public Map<String, Object> send(Map<String, Object> params) {
                token.cancel("enough");
                return super.send(params);
            }
        };
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("k", confirm()), null),
                server, Deadline.NONE, token))
                .isInstanceOf(McpCancelledException.class).hasMessageContaining("enough");
        assertThat(asked).hasValue(1);
        assertThat(server.sent).hasSize(1);
    }

    @Test
    void anInterruptFromElsewhereIsAnInterruptedException() {
        FakeServer server = new FakeServer(COMPLETE);
        InputRounds rounds = rounds(elicit(r -> {
            throw new InterruptedException("the application is shutting down");
        }));
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("k", confirm()), null),
                server, Deadline.after(Duration.ofSeconds(30)), CancellationToken.create()))
                .isInstanceOf(InterruptedException.class);
        assertThat(server.sent).isEmpty();
    }

    @Test
    void anExpiredDeadlineOrFiredTokenStopsTheLoopBeforeAnyHandlerRuns() {
        AtomicBoolean asked = new AtomicBoolean();
        InputRounds rounds = rounds(elicit(r -> {
            asked.set(true);
            return ElicitResult.decline();
        }));
        FakeServer server = new FakeServer(COMPLETE);
        CancellationToken fired = CancellationToken.create();
        fired.cancel();
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("k", confirm()), null),
                server, Deadline.NONE, fired)).isInstanceOf(McpCancelledException.class);
        assertThatThrownBy(() -> rounds.complete("tools/call", CALL, inputRequired(Map.of("k", confirm()), null),
                server, Deadline.after(Duration.ZERO), null)).isInstanceOf(McpTimeoutException.class);
        assertThat(asked).isFalse();
        assertThat(server.sent).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ isolation

    @Test
    void parallelCallsNeverSeeEachOthersAnswersOrState() throws Exception {
        CyclicBarrier bothAsking = new CyclicBarrier(2);
        InputRounds rounds = rounds(elicit(r -> {
            bothAsking.await(10, TimeUnit.SECONDS); // both calls are in their handlers at once
            return ElicitResult.accept(Map.of("who", r.message()));
        }));
        FakeServer serverA = new FakeServer(COMPLETE);
        FakeServer serverB = new FakeServer(COMPLETE);
        Map<String, Object> ask = request("elicitation/create", Map.of("message", "A",
                "requestedSchema", Map.of("type", "object")));
        Map<String, Object> askB = request("elicitation/create", Map.of("message", "B",
                "requestedSchema", Map.of("type", "object")));
        CompletableFuture<Map<String, Object>> b = new CompletableFuture<>();
        Thread other = Thread.ofVirtual().start(() -> {
            try {
                b.complete(rounds.complete("prompts/get", Map.of("name", "p"), inputRequired(Map.of("kb", askB),
                        null), serverB, Deadline.after(Duration.ofSeconds(30)), null));
            } catch (Throwable t) {
                b.completeExceptionally(t);
            }
        });
        rounds.complete("tools/call", CALL, inputRequired(Map.of("ka", ask), "state-A"), serverA,
                Deadline.after(Duration.ofSeconds(30)), null);
        other.join();
        assertThat(b.get()).isSameAs(COMPLETE);

        assertThat(serverA.sent).containsExactly(Map.of("name", "deploy", "arguments", Map.of("env", "prod"),
                "inputResponses", Map.of("ka", Map.of("action", "accept", "content", Map.of("who", "A"))),
                "requestState", "state-A"));
        assertThat(serverB.sent).containsExactly(Map.of("name", "p",
                "inputResponses", Map.of("kb", Map.of("action", "accept", "content", Map.of("who", "B")))));
    }

    @Test
    void aMaxRoundsBelowOneIsRefused() {
        ClientHandlers h = handlers(b -> { });
        assertThatThrownBy(() -> new InputRounds(h, 0, () -> "s")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void handlersTakeTheSchemaRecords() throws Exception {
        List<CreateMessageRequest> seen = new ArrayList<>();
        InputRounds rounds = rounds(b -> b.samplingHandler(r -> {
            seen.add(r);
            return CreateMessageResult.ofText("m", "Paris");
        }));
        complete(rounds, inputRequired(Map.of("llm", sampling()), null), new FakeServer(COMPLETE));
        assertThat(seen).singleElement().satisfies(r -> {
            assertThat(r.maxTokens()).isEqualTo(20);
            assertThat(r.messages()).singleElement().satisfies(m -> assertThat(m.role()).isEqualTo("user"));
        });
    }
}
