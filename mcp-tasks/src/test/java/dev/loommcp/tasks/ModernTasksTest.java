package dev.loommcp.tasks;

import dev.loommcp.Registration;
import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.ToolCallAnswer;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The driver in the modern era (MODERN-ERA.md C.5) against the in-process fake tasks server. */
@ExtendWith(LeakCheck.class)
class ModernTasksTest {

    private static final RequestOptions TEN_S = RequestOptions.ofTimeout(Duration.ofSeconds(10));

    private final FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
    private McpTasks tasks = McpTasks.newBuilder().minPollInterval(Duration.ofMillis(20)).build();

    private void bind() {
        tasks.support().bind(server);
    }

    @AfterEach
    void close() {
        server.close();
        tasks.support().clientClosed();
    }

    private static Map<String, Object> args(Object... steps) {
        return Map.of("script", List.of(steps));
    }

    @Test
    void pollsAtTheServersIntervalUntilCompletedAndReturnsTheResult() throws Exception {
        bind();
        server.pollIntervalMs = 100;
        McpTask t = tasks.callToolAsTask("slow", args(task("working"), task("working"), completed("computed")),
                RequestOptions.DEFAULT);
        assertThat(t.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(t.snapshot().pollInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(tasks.store().list(server.serverKey)).extracting(TaskRecord::taskId).containsExactly(t.id());

        CallToolResult r = t.await(TEN_S);

        assertThat(r.text()).isEqualTo("computed");
        assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED);
        List<FakeTaskChannel.Sent> gets = server.sent("tasks/get", t.id());
        assertThat(gets).hasSize(3);
        long created = server.sent("tools/call").get(0).nanoTime();
        assertThat(gets.get(0).nanoTime() - created).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
        for (int i = 1; i < gets.size(); i++) {
            assertThat(gets.get(i).nanoTime() - gets.get(i - 1).nanoTime())
                    .as("never faster than the server's interval").isGreaterThanOrEqualTo(Duration.ofMillis(100)
                            .toNanos());
        }
        assertThat(tasks.store().list(server.serverKey)).as("an ended task is forgotten").isEmpty();
        assertThat(server.sent("tasks/cancel")).isEmpty();
    }

    @Test
    void followsAChangedPollInterval() throws Exception {
        bind();
        server.pollIntervalMs = 50;
        McpTask t = tasks.callToolAsTask("slow", args(task("working", "pollIntervalMs", 400), task("working"),
                completed("ok")), RequestOptions.DEFAULT);
        t.await(TEN_S);
        List<FakeTaskChannel.Sent> gets = server.sent("tasks/get", t.id());
        assertThat(gets).hasSize(3);
        assertThat(gets.get(1).nanoTime() - gets.get(0).nanoTime()).isGreaterThanOrEqualTo(
                Duration.ofMillis(400).toNanos());
        assertThat(gets.get(2).nanoTime() - gets.get(1).nanoTime()).as("the latest interval is kept")
                .isGreaterThanOrEqualTo(Duration.ofMillis(400).toNanos());
    }

    @Test
    void answersEachInputKeyExactlyOnceAcrossPollsWithPartialUpdates() throws Exception {
        bind();
        server.pollIntervalMs = 30;
        Map<String, Object> a = Map.of("method", "elicitation/create", "params", Map.of("message", "a?"));
        Map<String, Object> b = Map.of("method", "elicitation/create", "params", Map.of("message", "b?"));
        // the handler answers only "a" at first, so the first update is partial
        server.inputAnswers = req -> {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String k : req.keySet()) {
                if (k.equals("a") || server.inputRequestsAsked.size() > 1) {
                    out.put(k, Map.of("action", "accept", "content", Map.of("v", k)));
                }
            }
            return out;
        };
        McpTask t = tasks.callToolAsTask("multi", args(
                task("input_required", "inputRequests", Map.of("a", a, "b", b)),
                task("input_required", "inputRequests", Map.of("a", a, "b", b)), // the update not yet seen
                task("input_required", "inputRequests", Map.of("b", b)),
                task("input_required", "inputRequests", Map.of("b", b)),
                task("working"),
                completed("both")), RequestOptions.DEFAULT);

        assertThat(t.await(TEN_S).text()).isEqualTo("both");

        List<FakeTaskChannel.Sent> updates = server.sent("tasks/update", t.id());
        assertThat(updates).hasSize(2);
        assertThat(responseKeys(updates.get(0))).isEqualTo("[a]");
        assertThat(responseKeys(updates.get(1))).isEqualTo("[b]");
        assertThat(server.inputRequestsAsked.stream().filter(m -> m.containsKey("a")).count())
                .as("key a asked of the handlers once").isEqualTo(1);
        // update() by hand does not resend answered keys
        t.update(Map.of("a", Map.of("action", "decline")), TEN_S);
        assertThat(server.sent("tasks/update", t.id())).hasSize(2);
    }

    private static String responseKeys(FakeTaskChannel.Sent update) {
        return List.copyOf(((Map<?, ?>) update.params().get("inputResponses")).keySet()).toString();
    }

    @Test
    void aFailedTaskThrowsItsJsonRpcError() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("bad", args(task("working"), task("failed", "error",
                Map.of("code", -32603, "message", "simulated internal error"))), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOfSatisfying(McpTaskFailedException.class, e -> {
            assertThat(e.taskId()).isEqualTo(t.id());
            assertThat(e.code()).isEqualTo(-32603);
            assertThat(e.errorMessage()).isEqualTo("simulated internal error");
            assertThat(e.method()).isEqualTo("tools/call");
            assertThat(e.toolName().orElseThrow()).isEqualTo("bad");
            assertThat(e.getMessage()).isEqualTo("task " + t.id() + " (tools/call bad) ended failed with JSON-RPC"
                    + " error -32603: simulated internal error");
        });
        assertThat(t.status()).isEqualTo(TaskStatus.FAILED);
    }

    @Test
    void anIsErrorToolResultIsACompletedTaskInTheExtension() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("failing_job", args(task("completed", "result",
                FakeTaskChannel.textResult("job failed", true))), RequestOptions.DEFAULT);
        CallToolResult r = t.await(TEN_S);
        assertThat(r.error()).isTrue();
        assertThat(r.text()).isEqualTo("job failed");
        assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void aTaskCancelledByTheServerThrowsCancelledNamingIt() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("cancelled", "statusMessage", "operator stopped it")),
                RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining(t.id()).hasMessageContaining("operator stopped it");
    }

    @Test
    void theCallersDeadlineCancelsTheTaskOnceAndThrowsTimeout() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(RequestOptions.ofTimeout(Duration.ofMillis(300))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining(t.id());
        assertThat(server.sent("tasks/cancel", t.id())).hasSize(1);
        assertThat(server.sent("notifications/cancelled")).isEmpty();
        assertThat(tasks.store().list(server.serverKey)).isEmpty();
    }

    @Test
    void awaitWithADeadlineObject() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(Deadline.after(Duration.ofMillis(200))))
                .isInstanceOf(McpTimeoutException.class);
        assertThat(server.sent("tasks/cancel", t.id())).hasSize(1);
    }

    @Test
    void theCallersTokenCancelsTheTask() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        CancellationToken token = CancellationToken.create();
        Throwable thrown = Waiters.thrownWhen(t, RequestOptions.ofToken(token),
                () -> !server.sent("tasks/get", t.id()).isEmpty(), w -> token.cancel("user pressed stop"));
        assertThat(thrown).isInstanceOf(McpCancelledException.class).hasMessageContaining("user pressed stop");
        assertThat(server.sent("tasks/cancel", t.id())).hasSize(1);
    }

    @Test
    void anInterruptCancelsTheTaskAndThrowsInterrupted() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        Throwable thrown = Waiters.thrownWhen(t, TEN_S, () -> !server.sent("tasks/get", t.id()).isEmpty(),
                Thread::interrupt);
        assertThat(thrown).isInstanceOf(InterruptedException.class);
        assertThat(server.sent("tasks/cancel", t.id())).hasSize(1);
    }

    @Test
    void theTtlBackstopEndsTheWaitNamingTaskAndTtl() throws Exception {
        bind();
        server.ttlMs = 300L;
        server.pollIntervalMs = 50;
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining(t.id()).hasMessageContaining("TTL of 300 ms");
        assertThat(tasks.store().list(server.serverKey)).isEmpty();
    }

    @Test
    void anUnknownTaskThrowsNotFoundAndIsForgotten() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working"), new McpTaskNotFoundException("tasks/get",
                "x", null, JsonRpcError.of(-32602, "Task not found"))), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(McpTaskNotFoundException.class);
        assertThat(tasks.store().list(server.serverKey)).isEmpty();
    }

    @Test
    void rateLimitedPollsBackOffAndGoOn() throws Exception {
        bind();
        server.pollIntervalMs = 50;
        McpTask t = tasks.callToolAsTask("slow", args(
                FakeTaskChannel.rpc("tasks/get", -32000, "Rate limit exceeded"),
                FakeTaskChannel.rpc("tasks/get", -32000, "Rate limit exceeded"),
                completed("patient")), RequestOptions.DEFAULT);
        assertThat(t.await(TEN_S).text()).isEqualTo("patient");
        List<FakeTaskChannel.Sent> gets = server.sent("tasks/get", t.id());
        assertThat(gets).hasSize(3);
        assertThat(gets.get(1).nanoTime() - gets.get(0).nanoTime()).isGreaterThanOrEqualTo(
                Duration.ofMillis(100).toNanos());
        assertThat(gets.get(2).nanoTime() - gets.get(1).nanoTime()).isGreaterThanOrEqualTo(
                Duration.ofMillis(200).toNanos());
    }

    @Test
    void pollsThatKeepFailingEndTheWaitWithTheFailure() throws Exception {
        tasks = McpTasks.newBuilder().minPollInterval(Duration.ofMillis(1)).maxPollInterval(Duration.ofMillis(20))
                .build();
        bind();
        server.pollIntervalMs = 10;
        Object down = new dev.loommcp.McpTransportException("connection refused");
        McpTask t = tasks.callToolAsTask("slow", args(down, down, down, down, down, down, completed("late")),
                RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(dev.loommcp.McpTransportException.class)
                .hasMessageContaining("connection refused");
        assertThat(server.sent("tasks/get", t.id())).hasSize(TaskPolls.MAX_POLL_FAILURES);
        assertThat(tasks.store().list(server.serverKey)).as("still open on the server: kept").hasSize(1);
    }

    @Test
    void aTerminalStatusIsFinal() throws Exception {
        bind();
        server.offersPush = true;
        server.pollIntervalMs = 60_000;
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        Thread pusher = Thread.ofVirtual().start(() -> {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.openSubscriptions.get() == 1);
            server.push(Map.of("taskId", t.id(), "status", "completed", "result",
                    FakeTaskChannel.textResult("pushed", false)));
            server.push(Map.of("taskId", t.id(), "status", "working"));
        });
        assertThat(t.await(TEN_S).text()).isEqualTo("pushed");
        pusher.join(Duration.ofSeconds(10));
        assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(t.get(TEN_S).status()).as("a poll saying working does not reopen it").isEqualTo(
                TaskStatus.COMPLETED);
        assertThat(server.openSubscriptions.get()).as("the listen is closed at the end").isZero();
        assertThat(server.sent("subscriptions/listen")).hasSize(1);
    }

    @Test
    void atMostSixtyFourListensAreOpenAtOnce() throws Exception {
        bind();
        server.offersPush = true;
        server.pollIntervalMs = 60_000;
        List<McpTask> all = new ArrayList<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < McpTasks.MAX_PUSH_LISTENS + 6; i++) {
            McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
            all.add(t);
            waiters.add(Thread.ofVirtual().start(() -> {
                try {
                    t.await(TEN_S);
                } catch (Exception e) {
                    // ended below
                }
            }));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.sent("subscriptions/listen").size()
                == McpTasks.MAX_PUSH_LISTENS);
        assertThat(server.openSubscriptions.get()).isEqualTo(McpTasks.MAX_PUSH_LISTENS);
        for (McpTask t : all) {
            server.push(Map.of("taskId", t.id(), "status", "completed", "result",
                    FakeTaskChannel.textResult("x", false)));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> all.stream().filter(t -> t.status().isTerminal())
                .count() == McpTasks.MAX_PUSH_LISTENS);
        // the rest are polled only; the client closes under them
        server.close();
        tasks.support().clientClosed();
        for (Thread w : waiters) {
            w.join(Duration.ofSeconds(15));
        }
        assertThat(server.openSubscriptions.get()).isZero();
    }

    @Test
    void aMissingExtensionEndsTheWaitAtOnce() throws Exception {
        bind();
        server.pollIntervalMs = 20;
        McpTask t = tasks.callToolAsTask("slow", args(new dev.loommcp.McpRpcException("tasks/get",
                null, new JsonRpcError(-32021, "tasks extension not declared", null)), completed("never")),
                RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOfSatisfying(dev.loommcp.McpRpcException.class,
                e -> assertThat(e.code()).isEqualTo(JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY));
        assertThat(server.sent("tasks/get", t.id())).hasSize(1);
    }

    @Test
    void withoutPushTheListenIsNeverOpened() throws Exception {
        tasks = McpTasks.newBuilder().push(false).build();
        bind();
        server.offersPush = true;
        server.pollIntervalMs = 30;
        McpTask t = tasks.callToolAsTask("slow", args(completed("x")), RequestOptions.DEFAULT);
        t.await(TEN_S);
        assertThat(server.sent("subscriptions/listen")).isEmpty();
    }

    @Test
    void aRefusedListenFallsBackToPolling() throws Exception {
        bind();
        server.offersPush = false;
        server.pollIntervalMs = 30;
        McpTask t = tasks.callToolAsTask("slow", args(task("working"), completed("polled")), RequestOptions.DEFAULT);
        assertThat(t.await(TEN_S).text()).isEqualTo("polled");
        assertThat(server.sent("subscriptions/listen")).hasSize(1);
    }

    @Test
    void listenersHearEachChangeInOrder() throws Exception {
        bind();
        server.pollIntervalMs = 30;
        McpTask t = tasks.callToolAsTask("slow", args(task("working", "statusMessage", "step 1"),
                task("working", "statusMessage", "step 1"), task("working", "statusMessage", "step 2"),
                completed("done")), RequestOptions.DEFAULT);
        List<String> heard = new CopyOnWriteArrayList<>();
        t.addListener((task, s) -> heard.add(s.status().wireName() + ":" + s.statusMessage()));
        t.addListener((task, s) -> {
            throw new IllegalStateException("a bad listener is ignored");
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 3);
        assertThat(heard).containsExactly("working:step 1", "working:step 2", "completed:null");
        assertThat(t.await(TEN_S).text()).isEqualTo("done");
    }

    @Test
    void aThousandWaitingTasksCostNoThreadBetweenPolls() throws Exception {
        bind();
        server.pollIntervalMs = 60_000; // polls far away: every task waits
        List<McpTask> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
            t.addListener((task, s) -> { });
            all.add(t);
        }
        assertThat(tasks.store().list(server.serverKey)).hasSize(1000);
        await().atMost(Duration.ofSeconds(10)).until(() -> tasks.timer().scheduled() == 1000);
        assertThat(server.threads.live("tasks-poll")).isZero();
        assertThat(server.threads.live("tasks-timer")).isLessThanOrEqualTo(1);
        assertThat(server.threads.peak("tasks-timer")).isEqualTo(1);
        assertThat(all).allMatch(t -> t.status() == TaskStatus.WORKING);
    }

    @Test
    void aThousandConcurrentAwaitsAllCompleteAtTheServersPace() throws Exception {
        bind();
        server.pollIntervalMs = 50;
        List<McpTask> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            all.add(tasks.callToolAsTask("quick", args(task("working"), task("working"), completed("r" + i)),
                    RequestOptions.DEFAULT));
        }
        List<Thread> waiters = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (McpTask t : all) {
            waiters.add(Thread.ofVirtual().start(() -> {
                try {
                    t.await(RequestOptions.ofTimeout(Duration.ofSeconds(60)));
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread w : waiters) {
            w.join(Duration.ofSeconds(60));
        }
        assertThat(failures).isEmpty();
        assertThat(all).allMatch(t -> t.status() == TaskStatus.COMPLETED);
        assertThat(all).allMatch(t -> ((TaskHandle) t).polls() == 3);
        // one timer for all; a timer that found its queue empty may still be ending when the next one starts
        assertThat(server.threads.peak("tasks-timer")).as("one timer for all").isLessThanOrEqualTo(2);
        assertThat(server.sent("tasks/cancel")).isEmpty();
    }

    @Test
    void cancelOfATerminalTaskSendsNothing() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("quick", args(completed("q")), RequestOptions.DEFAULT);
        t.await(TEN_S);
        t.cancel(TEN_S);
        assertThat(server.sent("tasks/cancel")).isEmpty();
    }

    @Test
    void anImmediateAnswerGivesACompletedHandle() throws Exception {
        bind();
        server.immediateResult = FakeTaskChannel.textResult("at once", false);
        McpTask t = tasks.callToolAsTask("greet", null, RequestOptions.DEFAULT);
        assertThat(t.answeredAtOnce()).isTrue();
        assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(t.await(TEN_S).text()).isEqualTo("at once");
        assertThat(server.sent("tasks/get")).isEmpty();
        assertThat(tasks.store().list(server.serverKey)).isEmpty();
    }

    @Test
    void theSupportDrivesAPlainCallToolsTaskToItsResult() throws Exception {
        bind();
        server.pollIntervalMs = 30;
        String id = server.newTask(task("working"), completed("via support"));
        CallToolResult r = tasks.support().awaitResult(new ToolCallAnswer.Pending("slow", server.creation(id)), TEN_S);
        assertThat(r.text()).isEqualTo("via support");
        assertThat(server.sent("tasks/get", id)).hasSize(2);
    }

    @Test
    void aTaskCreatedAlreadyCompletedIsPolledForItsResult() throws Exception {
        bind();
        server.pollIntervalMs = 20;
        String id = server.newTask(completed("fast"));
        Map<String, Object> created = new LinkedHashMap<>(server.creation(id));
        created.put("status", "completed");
        assertThat(tasks.support().awaitResult(new ToolCallAnswer.Pending("quick", created), TEN_S).text())
                .isEqualTo("fast");
        assertThat(server.sent("tasks/get", id)).hasSize(1);
    }

    @Test
    void aMalformedCreationIsAClearError() {
        bind();
        assertThatThrownBy(() -> tasks.support().awaitResult(new ToolCallAnswer.Pending("slow", Map.of("resultType",
                "task", "status", "working")), TEN_S)).isInstanceOf(dev.loommcp.McpProtocolException.class)
                .hasMessageContaining("taskId");
    }

    @Test
    void listDoesNotExistInTheExtension() {
        bind();
        assertThatThrownBy(() -> tasks.list(TEN_S)).isInstanceOf(McpUnsupportedInEraException.class)
                .hasMessageContaining("tasks/list");
    }

    @Test
    void closingTheClientEndsEveryWait() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        Throwable thrown = Waiters.thrownWhen(t, TEN_S, () -> !server.sent("tasks/get", t.id()).isEmpty(),
                w -> {
                    server.close();
                    tasks.support().clientClosed();
                });
        assertThat(thrown).isInstanceOf(McpClosedException.class)
                .as("after the owner's close(): no lost-connection wording")
                .hasMessageStartingWith("the client closed while waiting for task " + t.id());
        assertThat(tasks.store().list(server.serverKey)).as("kept for resumeTasks").hasSize(1);
    }

    @Test
    void aLostConnectionEndsTheWaitSayingSoWithTheTransportsFailureAsCause() throws Exception {
        bind();
        McpTask t = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        java.io.IOException broken = new java.io.IOException("the server process exited with status 137");
        Throwable thrown = Waiters.thrownWhen(t, TEN_S, () -> !server.sent("tasks/get", t.id()).isEmpty(),
                w -> {
                    server.connectionLost(broken);
                    tasks.support().clientClosed();
                });
        assertThat(thrown).isInstanceOf(McpClosedException.class).hasMessage("the connection to the server was lost"
                + " while waiting for task " + t.id() + ": the server process exited with status 137")
                .hasCause(broken);
    }

    @Test
    void inputThatNoHandlerAnswersDoesNotCancelTheTaskAndCanBeGivenByUpdate() throws Exception {
        bind();
        server.pollIntervalMs = 20;
        Map<String, Object> ask = Map.of("method", "elicitation/create", "params", Map.of("message", "Name?"));
        server.inputAnswers = req -> {
            throw new dev.loommcp.McpInputRequiredException("no elicitation handler is installed", null);
        };
        McpTask t = tasks.callToolAsTask("confirm", args(task("input_required", "inputRequests",
                Map.of("name", ask))), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(dev.loommcp.McpInputRequiredException.class)
                .hasMessageContaining("no elicitation handler");
        assertThat(server.sent("tasks/cancel")).as("the task is left as it is").isEmpty();
        assertThat(tasks.store().list(server.serverKey)).as("still recorded").hasSize(1);
        // the input can still be given by hand
        t.update(Map.of("name", Map.of("action", "accept", "content", Map.of("v", "Ada"))), TEN_S);
        assertThat(server.sent("tasks/update", t.id())).hasSize(1);
    }

    @Test
    void aHandlerThatThrowsDoesNotCancelTheTask() throws Exception {
        bind();
        server.pollIntervalMs = 20;
        Map<String, Object> ask = Map.of("method", "elicitation/create", "params", Map.of("message", "Name?"));
        server.inputAnswers = req -> {
            throw new IllegalStateException("the handler broke");
        };
        McpTask t = tasks.callToolAsTask("confirm", args(task("input_required", "inputRequests",
                Map.of("name", ask))), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> t.await(TEN_S)).isInstanceOf(IllegalStateException.class);
        assertThat(server.sent("tasks/cancel")).isEmpty();
    }

    @Test
    void aHandleMadeFromAnIdPollsAtOnce() throws Exception {
        // an interval of ten minutes: a handle that waited one interval before its first poll would not poll here
        tasks = McpTasks.newBuilder().maxPollInterval(Duration.ofMinutes(10)).minPollInterval(Duration.ofMinutes(10))
                .build();
        bind();
        String id = server.newTask(task("working", "statusMessage", "halfway"));
        McpTask t = tasks.task(id);
        List<TaskSnapshot> heard = new CopyOnWriteArrayList<>();
        try (Registration l = t.addListener((task, s) -> heard.add(s))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
        }
        assertThat(server.sent("tasks/get", id)).hasSize(1);
        assertThat(t.snapshot().statusMessage()).isEqualTo("halfway");
    }

    @Test
    void aListenerRegistrationClosedTwiceRemovesOnlyItsOwnListener() throws Exception {
        bind();
        server.pollIntervalMs = 60_000;
        TaskHandle t = (TaskHandle) tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        List<String> heard = new CopyOnWriteArrayList<>();
        List<String> told = new CopyOnWriteArrayList<>();
        TaskListener listener = (task, s) -> heard.add(s.statusMessage());
        Registration first = t.addListener(listener);
        Registration second = t.addListener(listener);
        // told after the others (listeners are told in the order added): once it heard a change, so did they
        try (Registration last = t.addListener((task, s) -> told.add(s.statusMessage()))) {
            t.apply(snap(t, TaskStatus.WORKING, "both", null), Deadline.NONE);
            await().atMost(Duration.ofSeconds(10)).until(() -> told.contains("both"));
            first.close();
            first.close(); // idempotent: the other registration of the same listener stays
            t.apply(snap(t, TaskStatus.WORKING, "one", null), Deadline.NONE);
            await().atMost(Duration.ofSeconds(10)).until(() -> told.contains("one"));
            second.close();
            t.apply(snap(t, TaskStatus.WORKING, "none", null), Deadline.NONE);
            await().atMost(Duration.ofSeconds(10)).until(() -> told.contains("none"));
        }
        assertThat(heard).containsExactly("both", "both", "one");
    }

    @Test
    void anOlderStatusArrivingLateIsIgnoredButATerminalOneAlwaysApplies() throws Exception {
        bind();
        server.pollIntervalMs = 60_000;
        McpTask created = tasks.callToolAsTask("slow", args(task("working")), RequestOptions.DEFAULT);
        TaskHandle t = (TaskHandle) created;
        java.time.Instant t0 = java.time.Instant.parse("2099-01-01T04:00:00Z");
        t.apply(snap(t, TaskStatus.INPUT_REQUIRED, "second", t0.plusSeconds(2)), Deadline.NONE);
        t.apply(snap(t, TaskStatus.WORKING, "first, late", t0.plusSeconds(1)), Deadline.NONE);
        assertThat(t.snapshot().status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(t.snapshot().statusMessage()).isEqualTo("second");
        t.apply(snap(t, TaskStatus.WORKING, "same time", t0.plusSeconds(2)), Deadline.NONE);
        assertThat(t.snapshot().statusMessage()).as("not older: applied").isEqualTo("same time");
        t.apply(snap(t, TaskStatus.WORKING, "no time", null), Deadline.NONE);
        assertThat(t.snapshot().statusMessage()).as("without a time: applied").isEqualTo("no time");
        t.apply(TaskSnapshot.completed(t.id(), Era.MODERN, FakeTaskChannel.textResult("ok", false)).toBuilder()
                .statusMessage("done, stamped early").lastUpdatedAt(t0).build(), Deadline.NONE);
        assertThat(t.snapshot().status()).as("a terminal status wins").isEqualTo(TaskStatus.COMPLETED);
        t.apply(snap(t, TaskStatus.WORKING, "after the end", t0.plusSeconds(9)), Deadline.NONE);
        assertThat(t.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
    }

    private static TaskSnapshot snap(McpTask t, TaskStatus status, String message, java.time.Instant updated) {
        return TaskSnapshot.newBuilder(t.id(), Era.MODERN, status).statusMessage(message).lastUpdatedAt(updated).build();
    }

    @Test
    void aSupportBindsToOneClientOnly() {
        bind();
        assertThatThrownBy(() -> tasks.support().bind(new FakeTaskChannel(Era.MODERN)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void usingTasksBeforeInstallingThemIsAClearError() {
        assertThatThrownBy(() -> tasks.task("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("taskSupport");
    }

    @Test
    void builderChecksItsBounds() {
        assertThatThrownBy(() -> McpTasks.newBuilder().minPollInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpTasks.newBuilder().maxPollInterval(Duration.ofMillis(50)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minPollInterval");
        assertThatThrownBy(() -> McpTasks.newBuilder().legacyTtl(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpTasks.newBuilder().store(null)).isInstanceOf(NullPointerException.class);
    }
}
