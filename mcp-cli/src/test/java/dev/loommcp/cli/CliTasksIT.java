package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testkit.HttpTasksFixture;
import dev.loommcp.testkit.ReferenceServer;
import dev.loommcp.transport.http.HttpTransport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The task commands of the real CLI ({@code java -jar mcp.jar}): {@code call --task} and
 * {@code tasks list|get|cancel|result}, against the tasks fixture (modern era, stdio and HTTP) and server-everything's
 * {@code simulate-research-query} (2025-11-25 tasks, stdio).
 */
@ExtendWith(LeakCheck.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliTasksIT {

    private static final Pattern TASK_ID = Pattern.compile("mcp: task (\\S+): working");

    private HttpTasksFixture http;

    @BeforeAll
    void startHttpFixture() throws Exception {
        http = new HttpTasksFixture();
    }

    @AfterAll
    void stopHttpFixture() {
        if (http != null) {
            http.close();
        }
    }

    private static String fixtureStdio() {
        return dev.loommcp.testkit.TasksFixture.stdioCommand().stream()
                .map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    private static String everythingStdio() {
        return ReferenceServer.stdioCommand().stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    private static Run mcp(String... args) throws Exception {
        return CliProcess.run(new ProcessBuilder(CliProcess.javaJar(args)));
    }

    private static String taskId(Run r) {
        Matcher m = TASK_ID.matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        return m.group(1);
    }

    @Test
    void callTaskNotesEachStatusAndPrintsTheResult() throws Exception {
        Run r = mcp("--stdio", fixtureStdio(), "call", "--task", "slow_compute", "{\"seconds\":0.5}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("computed after 500 ms" + System.lineSeparator());
        String id = taskId(r);
        assertThat(r.err()).contains("mcp: task " + id + ": working; Ctrl+C cancels it",
                "mcp: task " + id + ": completed");
    }

    @Test
    void aCallAnsweredAtOnceShowsNoTask() throws Exception {
        Run modern = mcp("--stdio", fixtureStdio(), "call", "--task", "greet", "{\"name\":\"Ada\"}");
        assertThat(modern.code()).as(modern.err()).isZero();
        assertThat(modern.out()).isEqualTo("Hello, Ada!" + System.lineSeparator());
        assertThat(modern.err()).isEqualTo("mcp: the server answered at once: no task was created"
                + System.lineSeparator());
        // legacy: echo declares no execution.taskSupport, so the call is not augmented
        Run legacy = mcp("--stdio", everythingStdio(), "call", "--task", "echo", "{\"message\":\"hi\"}");
        assertThat(legacy.code()).as(legacy.err()).isZero();
        assertThat(legacy.out()).isEqualTo("Echo: hi" + System.lineSeparator());
        assertThat(legacy.err()).contains("no task was created");
    }

    @Test
    void callTaskWithJsonPrintsTheFinalResult() throws Exception {
        Run r = mcp("--stdio", fixtureStdio(), "--json", "call", "--task", "quick_task", "{\"n\":7}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"text\" : \"quick 7\"");
    }

    @Test
    void theExitCodesOfATaskFollowItsEnd() throws Exception {
        Run isError = mcp("--stdio", fixtureStdio(), "call", "--task", "failing_job", "{\"seconds\":0.2}");
        assertThat(isError.code()).as(isError.err()).isEqualTo(1);
        assertThat(isError.err()).contains(": completed", "returned an error result (isError: true)");

        Run failed = mcp("--stdio", fixtureStdio(), "call", "--task", "protocol_error_job", "{\"seconds\":0.2}");
        assertThat(failed.code()).as(failed.err()).isEqualTo(4);
        // the error is the task's end, not the server's answer to a request
        assertThat(failed.err()).contains(": failed",
                "mcp: task " + taskId(failed) + " ended failed with JSON-RPC error -32603: simulated internal error")
                .doesNotContain("answered tools/call");
    }

    @Test
    void inputRequiredIsAnsweredFromElicit() throws Exception {
        Run r = mcp("--stdio", fixtureStdio(), "--elicit", "{\"confirm\":true}", "call", "--task", "confirm_delete",
                "{\"filename\":\"notes.txt\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("deleted notes.txt" + System.lineSeparator());
        assertThat(r.err()).contains(": input_required", "mcp: the server asks: ");
    }

    @Test
    void tasksListIsALegacyCommand() throws Exception {
        Run modern = mcp("--stdio", fixtureStdio(), "tasks", "list");
        assertThat(modern.code()).as(modern.err()).isEqualTo(2);
        assertThat(modern.err()).contains("tasks/list").contains("modern", "mcp tasks get TASK-ID")
                .doesNotContain("--protocol");

        Run legacy = mcp("--stdio", everythingStdio(), "tasks", "list");
        assertThat(legacy.code()).as(legacy.err()).isZero();
        assertThat(legacy.out()).isEqualTo("(no tasks)" + System.lineSeparator());
    }

    @Test
    void anUnknownTaskIsNamed() throws Exception {
        for (String server : List.of(fixtureStdio(), everythingStdio())) {
            Run r = mcp("--stdio", server, "tasks", "get", "no-such-task");
            assertThat(r.code()).as(r.err()).isEqualTo(4);
            assertThat(r.err()).contains("-32602", "the server does not know task no-such-task",
                    "over --stdio every command starts a new server process");
        }
    }

    @Test
    void aTimeoutCancelsTheTask() throws Exception {
        Run r = mcp("--http", http.endpoint().toString(), "--timeout", "2s", "call", "--task", "slow_compute",
                "{\"seconds\":60}");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        String id = taskId(r);
        Run get = mcp("--http", http.endpoint().toString(), "tasks", "get", id);
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(get.out()).containsPattern("status +cancelled");
    }

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalDuringCallTaskCancelsTheTask(String signal, int status, @TempDir Path dir) throws Exception {
        assumeFalse(CliSignalIT.ignoredHere(signal), "SIG" + signal + " is ignored in this process tree");
        List<String> command = CliProcess.javaJar("--http", http.endpoint().toString(), "call", "--task",
                "slow_compute", "{\"seconds\":60}");
        Path err = dir.resolve("err");
        Process p = new ProcessBuilder(command).redirectInput(new File("/dev/null")).redirectError(err.toFile())
                .start();
        try {
            CompletableFuture<Run> run = CliProcess.collect(p, command);
            String id = awaitTaskId(err);
            CliSignalIT.signal(p, signal);
            Run r = run.get(60, TimeUnit.SECONDS);
            String stderr = Files.readString(err);
            assertThat(r.code()).as(stderr).isEqualTo(status);
            // the cancel's outcome is read from the server below: the CLI may exit before it hears of it
            assertThat(stderr).contains("mcp: interrupted");
            Run get = mcp("--http", http.endpoint().toString(), "--json", "tasks", "get", id);
            assertThat(get.code()).as(get.err()).isZero();
            assertThat(get.out()).contains("\"status\" : \"cancelled\"");
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    /** Waits (at most 60 s) until the CLI noted its task's id on stderr. */
    private static String awaitTaskId(Path err) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            Matcher m = TASK_ID.matcher(Files.exists(err) ? Files.readString(err) : "");
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the CLI noted no task id: " + Files.readString(err));
    }

    @Test
    void resultAndCancelReachATaskStartedElsewhere() throws Exception {
        McpTasks tasks = McpTasks.create();
        String quick;
        String slow;
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(http.endpoint()).build())
                .protocolMode(ProtocolMode.MODERN).taskSupport(tasks.support()).build()) {
            client.connect();
            quick = tasks.callToolAsTask("slow_compute", Map.of("seconds", 1), RequestOptions.DEFAULT).id();
            slow = tasks.callToolAsTask("slow_compute", Map.of("seconds", 120), RequestOptions.DEFAULT).id();
        }
        Run result = mcp("--http", http.endpoint().toString(), "tasks", "result", quick);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo("computed after 1000 ms" + System.lineSeparator());

        Run cancel = mcp("--http", http.endpoint().toString(), "tasks", "cancel", slow);
        assertThat(cancel.code()).as(cancel.err()).isZero();
        assertThat(cancel.out()).contains("asked the server to cancel task " + slow + "; its status is now cancelled");
        Run again = mcp("--http", http.endpoint().toString(), "tasks", "cancel", quick);
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).isEqualTo("task " + quick + " has already ended: completed; nothing to cancel"
                + System.lineSeparator());
        // cancelled by another command, not by this one's Ctrl+C: exit 4, not 130
        Run after = mcp("--http", http.endpoint().toString(), "tasks", "result", slow);
        assertThat(after.code()).as(after.err()).isEqualTo(4);
        assertThat(after.err()).contains("mcp: task " + slow + " was cancelled (by the server or another client)");
    }

    /** Starts a task on the HTTP fixture from a Java client (another client than the CLI) and returns its id. */
    private String startElsewhere(String tool, Map<String, Object> args, boolean untilInput) throws Exception {
        McpTasks tasks = McpTasks.create();
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(http.endpoint()).build())
                .protocolMode(ProtocolMode.MODERN).taskSupport(tasks.support()).build()) {
            client.connect();
            dev.loommcp.tasks.McpTask task = tasks.callToolAsTask(tool, args, RequestOptions.DEFAULT);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (untilInput && task.get(RequestOptions.DEFAULT).status()
                    != dev.loommcp.tasks.TaskStatus.INPUT_REQUIRED) {
                assertThat(System.nanoTime()).as("task %s reaches input_required", task.id()).isLessThan(end);
                Thread.sleep(50);
            }
            return task.id();
        }
    }

    private String statusOf(String id) throws Exception {
        Run get = mcp("--http", http.endpoint().toString(), "tasks", "get", id);
        assertThat(get.code()).as(get.err()).isZero();
        Matcher m = Pattern.compile("status +(\\S+)").matcher(get.out());
        assertThat(m.find()).as(get.out()).isTrue();
        return m.group(1);
    }

    @Test
    void inputTheCliCannotGiveIsNamedAndTheTaskIsLeftAsItIs() throws Exception {
        // tasks result: a watcher of a task started elsewhere
        String id = startElsewhere("confirm_delete", Map.of("filename", "a.txt"), true);
        Run r = mcp("--http", http.endpoint().toString(), "tasks", "result", id);
        assertThat(r.code()).as(r.err()).isEqualTo(4);
        assertThat(r.err()).contains("mcp: task " + id + " waits for input mcp cannot give:",
                "elicitation \"Delete a.txt?\"", "--elicit");
        assertThat(statusOf(id)).isEqualTo("input_required");

        // call --task: its own task, still not cancelled for input it cannot give
        Run call = mcp("--http", http.endpoint().toString(), "call", "--task", "confirm_delete",
                "{\"filename\":\"b.txt\"}");
        assertThat(call.code()).as(call.err()).isEqualTo(4);
        assertThat(call.err()).contains("elicitation \"Delete b.txt?\"", "the task is left as it is");
        assertThat(statusOf(taskId(call))).isEqualTo("input_required");

        // and the input can then be given
        Run answered = mcp("--http", http.endpoint().toString(), "--elicit", "{\"confirm\":true}", "tasks", "result",
                id);
        assertThat(answered.code()).as(answered.err()).isZero();
        assertThat(answered.out()).isEqualTo("deleted a.txt" + System.lineSeparator());
    }

    @Test
    void tasksGetShowsEachInputRequestWithItsMessage() throws Exception {
        String id = startElsewhere("confirm_delete", Map.of("filename", "c.txt"), true);
        Run get = mcp("--http", http.endpoint().toString(), "tasks", "get", id);
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(get.out()).containsPattern("waiting for input:\\R  confirm-\\S+: elicitation \"Delete c.txt\\?\"");
        mcp("--http", http.endpoint().toString(), "tasks", "cancel", id);
    }

    @Test
    void aTimeoutOfTasksResultStopsWatchingWithoutCancelling() throws Exception {
        String id = startElsewhere("slow_compute", Map.of("seconds", 120), false);
        Run r = mcp("--http", http.endpoint().toString(), "--timeout", "1s", "tasks", "result", id);
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        assertThat(r.err()).contains("mcp: timed out (--timeout 1s): task " + id, "it was not cancelled");
        assertThat(statusOf(id)).isEqualTo("working");
        mcp("--http", http.endpoint().toString(), "tasks", "cancel", id);
    }

    @Test
    void ctrlCOnTasksResultStopsWatchingWithoutCancelling(@TempDir Path dir) throws Exception {
        assumeFalse(CliSignalIT.ignoredHere("INT"), "SIGINT is ignored in this process tree");
        String id = startElsewhere("slow_compute", Map.of("seconds", 120), false);
        List<String> command = CliProcess.javaJar("--http", http.endpoint().toString(), "tasks", "result", id);
        Path err = dir.resolve("err");
        Process p = new ProcessBuilder(command).redirectInput(new File("/dev/null")).redirectError(err.toFile())
                .start();
        try {
            CompletableFuture<Run> run = CliProcess.collect(p, command);
            awaitStderr(err, "Ctrl+C stops watching");
            CliSignalIT.signal(p, "INT");
            Run r = run.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).as(Files.readString(err)).isEqualTo(130);
            assertThat(statusOf(id)).isEqualTo("working");
        } finally {
            p.destroyForcibly().waitFor();
            mcp("--http", http.endpoint().toString(), "tasks", "cancel", id);
        }
    }

    /** Waits (at most 60 s) until the CLI wrote {@code text} on stderr. */
    private static void awaitStderr(Path err, String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            if (Files.exists(err) && Files.readString(err).contains(text)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the CLI did not write '" + text + "': " + Files.readString(err));
    }

    @Test
    void jsonCancelOfAnEndedTaskSendsNoCancel() throws Exception {
        Run done = mcp("--http", http.endpoint().toString(), "call", "--task", "quick_task", "{\"n\":1}");
        assertThat(done.code()).as(done.err()).isZero();
        String id = Pattern.compile("mcp: task (\\S+): ").matcher(done.err()).results().findFirst()
                .orElseThrow().group(1);
        for (boolean json : new boolean[] {true, false}) {
            Run r = json ? mcp("--http", http.endpoint().toString(), "--json", "tasks", "cancel", id)
                    : mcp("--http", http.endpoint().toString(), "tasks", "cancel", id);
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(json ? r.err() : r.out()).contains("task " + id + " has already ended: completed; nothing to "
                    + "cancel");
            if (json) {
                assertThat(r.out()).contains("\"status\" : \"completed\"");
            }
        }
        assertThat(statusOf(id)).isEqualTo("completed");
    }

    @Test
    void aTaskTtlIsNotBlamedOnTimeout() throws Exception {
        for (List<String> call : List.of(List.of("call", "--task"), List.of("call"))) {
            List<String> args = new java.util.ArrayList<>(List.of("--http", http.endpoint().toString()));
            args.addAll(call);
            args.addAll(List.of("slow_compute", "{\"seconds\":60,\"ttlMs\":500}"));
            Run r = mcp(args.toArray(String[]::new));
            assertThat(r.code()).as(r.err()).isEqualTo(5);
            assertThat(r.err()).contains("mcp: timed out: ", "passed its TTL").doesNotContain("--timeout");
        }
    }

    @Test
    void anEmptyTaskIdIsAUsageError() throws Exception {
        for (String command : List.of("get", "cancel", "result")) {
            Run r = mcp("--http", http.endpoint().toString(), "tasks", command, "");
            assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).contains("TASK-ID is empty");
        }
    }

    @Test
    void anUnknownTaskOverHttpIsNotBlamedOnStdio() throws Exception {
        Run r = mcp("--http", http.endpoint().toString(), "tasks", "get", "no-such-task");
        assertThat(r.code()).as(r.err()).isEqualTo(4);
        assertThat(r.err()).contains("the server does not know task no-such-task", "may have forgotten it")
                .doesNotContain("--stdio");
    }

    @Test
    void legacyCallTaskRunsTheResearchToItsReport() throws Exception {
        Run r = mcp("--stdio", everythingStdio(), "call", "--task", "simulate-research-query",
                "{\"topic\":\"virtual threads\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# Research Report: virtual threads");
        assertThat(r.err()).contains("working (Gathering sources...); Ctrl+C cancels it", ": completed");
    }

    @Test
    void legacyInputIsAnsweredFromElicit() throws Exception {
        Run r = mcp("--stdio", everythingStdio(), "--elicit", "{\"interpretation\":\"technical\"}", "call", "--task",
                "simulate-research-query", "{\"topic\":\"python\",\"ambiguous\":true}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("# Research Report: python (technical)");
        assertThat(r.err()).contains("mcp: the server asks: ");
    }
}
