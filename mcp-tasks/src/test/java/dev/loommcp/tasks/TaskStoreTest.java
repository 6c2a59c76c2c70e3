package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.loommcp.config.Era;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both shipped {@link TaskStore}s, and the crash safety of {@link FileTaskStore}. */
class TaskStoreTest {

    @TempDir
    Path dir;

    private static TaskRecord record(String server, String id, TaskStatus status) {
        return new TaskRecord(id, server, Era.MODERN, "slow_compute", Instant.parse("2026-12-01T03:00:00Z"),
                Duration.ofMinutes(10), status);
    }

    private Supplier<TaskStore> store(String kind) {
        return kind.equals("memory") ? InMemoryTaskStore::new
                : () -> new FileTaskStore(dir.resolve("tasks.json"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void putReplacesListKeepsCreationOrderPerServerAndRemoveForgets(String kind) {
        TaskStore s = store(kind).get();
        s.put(record("srv-a", "1", TaskStatus.WORKING));
        s.put(record("srv-b", "2", TaskStatus.WORKING));
        s.put(record("srv-a", "3", TaskStatus.WORKING));
        s.put(record("srv-a", "1", TaskStatus.INPUT_REQUIRED));
        assertThat(s.list("srv-a")).extracting(TaskRecord::taskId).containsExactly("1", "3");
        assertThat(s.list("srv-a").get(0).lastStatus()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(s.list("srv-b")).extracting(TaskRecord::taskId).containsExactly("2");
        s.remove("srv-a", "1");
        s.remove("srv-a", "never-there");
        assertThat(s.list("srv-a")).extracting(TaskRecord::taskId).containsExactly("3");
    }

    @Test
    void aFileStoreSurvivesARestartWithEveryField() {
        Path file = dir.resolve("tasks.json");
        FileTaskStore first = new FileTaskStore(file);
        TaskRecord odd = new TaskRecord("id \"quoted\" \\ \n\u0001é", "node \"server.mjs\" --stdio", Era.LEGACY,
                "tool", Instant.parse("2026-12-01T03:00:00.123456789Z"), null, TaskStatus.WORKING);
        first.put(odd);
        first.put(record("s", "2", TaskStatus.INPUT_REQUIRED));
        FileTaskStore second = new FileTaskStore(file);
        assertThat(second.list(odd.serverKey())).containsExactly(odd);
        assertThat(second.list("s")).containsExactly(record("s", "2", TaskStatus.INPUT_REQUIRED));
        assertThat(second.file()).isEqualTo(file.toAbsolutePath());
    }

    @Test
    void aTruncatedTempFileLeftByACrashDoesNotBreakTheNextStart() throws Exception {
        Path file = dir.resolve("tasks.json");
        new FileTaskStore(file).put(record("s", "1", TaskStatus.WORKING));
        String whole = Files.readString(file);
        // the crash: the next write died after writing half of its temporary file, before the move
        Path temp = dir.resolve("tasks.json.tmp");
        Files.writeString(temp, whole.substring(0, whole.length() / 2));

        FileTaskStore restarted = new FileTaskStore(file);
        assertThat(restarted.list("s")).extracting(TaskRecord::taskId).containsExactly("1");
        restarted.put(record("s", "2", TaskStatus.WORKING));
        assertThat(new FileTaskStore(file).list("s")).extracting(TaskRecord::taskId).containsExactly("1", "2");
        assertThat(Files.exists(temp)).as("moved over the file").isFalse();
    }

    @Test
    void aFileStoreWritesNoPartialFile() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore s = new FileTaskStore(file);
        for (int i = 0; i < 50; i++) {
            s.put(record("s", "t" + i, TaskStatus.WORKING));
            assertThat(TaskRecords.read(Files.readString(file))).hasSize(i + 1);
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .containsExactlyInAnyOrder("tasks.json", "tasks.json.lock");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"version\":1,\"tasks\":[{\"taskId\":\"1\"", "not json", "{\"version\":0,\"tasks\":[]}",
            "{\"version\":1,\"tasks\":[1]}", "{\"version\":1,\"tasks\":{}}", " "})
    void aCorruptFileFailsAtConstructionNamingItAndIsNotOverwritten(String content) throws Exception {
        Path file = dir.resolve("tasks.json");
        Files.writeString(file, content);
        assertThatThrownBy(() -> new FileTaskStore(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("corrupt");
        assertThat(Files.readString(file)).isEqualTo(content);
    }

    /**
     * bt41 item 2: a record this version cannot read (a newer version's status or era, a field changed by hand) no
     * longer makes the whole file corrupt: it is skipped (WARNING naming the task and field) and written back as it
     * was, and the other records go on. (It replaced the "createdAt": "yesterday" case of the corrupt-file test.)
     */
    @Test
    void anUnreadableRecordIsSkippedAndKeptAsItIsWhileTheOthersGoOn() throws Exception {
        Path file = dir.resolve("tasks.json");
        String good = "{\"taskId\":\"1\",\"serverKey\":\"s\",\"era\":\"MODERN\",\"toolName\":\"t\","
                + "\"createdAt\":\"2026-12-01T03:00:00Z\",\"ttlMs\":null,\"lastStatus\":\"working\"}";
        String badTime = good.replace("\"1\"", "\"2\"").replace("2026-12-01T03:00:00Z", "yesterday");
        String badStatus = good.replace("\"1\"", "\"3\"").replace("working", "paused");
        String badEra = good.replace("\"1\"", "\"4\"").replace("MODERN", "ERA2099");
        Files.writeString(file, "{\"version\":1,\"tasks\":[" + good + "," + badTime + "," + badStatus + ","
                + badEra + "]}\n");
        FileTaskStore s = new FileTaskStore(file);
        assertThat(s.list("s")).extracting(TaskRecord::taskId).containsExactly("1");
        s.put(record("s", "5", TaskStatus.WORKING));
        assertThat(s.list("s")).extracting(TaskRecord::taskId).containsExactly("1", "5");
        String after = Files.readString(file);
        assertThat(after).contains("yesterday").contains("paused").contains("ERA2099");
        assertThat(s.claim("s", r -> r.withOwner("o", null), dev.loommcp.Deadline.NONE))
                .extracting(TaskRecord::taskId).containsExactly("1", "5");
        assertThat(Files.readString(file)).contains("yesterday").contains("paused").contains("ERA2099");
    }

    /**
     * Issue 26 item 21: a store file that does not parse is named by line and column; the parser's message named its
     * internals ({@code StreamReadFeature...}), and content (a stored result) is never quoted.
     */
    @Test
    void aSyntaxErrorInTheFileSaysWhereWithoutTheParsersInternalsOrTheContent() {
        assertThatThrownBy(() -> TaskRecords.read("{\"version\":1,\n\"tasks\":[{\"taskId\":\"secret-result\""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not valid JSON at line 2, column ")
                .message().doesNotContain("secret-result").doesNotContain("Feature").doesNotContain("`");
    }

    @Test
    void aFileCorruptedLaterIsAClearErrorOnEveryUseAndIsNotOverwritten() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore s = new FileTaskStore(file);
        s.put(record("s", "1", TaskStatus.WORKING));
        Files.writeString(file, "not json");
        assertThatThrownBy(() -> s.list("s")).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("corrupt");
        assertThatThrownBy(() -> s.put(record("s", "2", TaskStatus.WORKING)))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining(file.toString());
        assertThatThrownBy(() -> s.remove("s", "1")).isInstanceOf(UncheckedIOException.class);
        assertThat(Files.readString(file)).isEqualTo("not json");
    }

    @Test
    void anEmptyFileMadeByTouchIsAnEmptyStore() throws Exception {
        Path file = dir.resolve("tasks.json");
        Files.createFile(file);
        FileTaskStore s = new FileTaskStore(file);
        assertThat(s.list("s")).isEmpty();
        s.put(record("s", "1", TaskStatus.WORKING));
        assertThat(new FileTaskStore(file).list("s")).extracting(TaskRecord::taskId).containsExactly("1");
    }

    @Test
    void aFileThatIsNotUtf8IsCorrupt() throws Exception {
        Path file = dir.resolve("tasks.json");
        Files.write(file, new byte[] {'{', (byte) 0xff, '}'});
        assertThatThrownBy(() -> new FileTaskStore(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not UTF-8");
    }

    @Test
    void aMissingDirectoryFailsAtConstructionNamingTheFile() {
        Path file = dir.resolve("no-such-dir").resolve("tasks.json");
        assertThatThrownBy(() -> new FileTaskStore(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("does not exist");
        assertThat(Files.exists(file.getParent())).isFalse();
    }

    @Test
    void aDirectoryThatIsAFileFailsAtConstruction() throws Exception {
        Path notDir = Files.createFile(dir.resolve("plain"));
        Path file = notDir.resolve("tasks.json");
        assertThatThrownBy(() -> new FileTaskStore(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("is not a directory");
    }

    @Test
    void aFailedWriteLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore s = new FileTaskStore(file);
        s.put(record("s", "1", TaskStatus.WORKING));
        Path blocker = Files.createDirectory(dir.resolve("tasks.json.tmp")); // the temporary file cannot be written
        try {
            assertThatThrownBy(() -> s.put(record("s", "2", TaskStatus.WORKING)))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining(file.toString());
            assertThat(s.list("s")).as("the failed put is not kept").extracting(TaskRecord::taskId)
                    .containsExactly("1");
        } finally {
            Files.delete(blocker);
        }
    }

    @Test
    void twoStoresOnOneFileSeeEachOthersChangesAndLoseNone() {
        Path file = dir.resolve("tasks.json");
        FileTaskStore a = new FileTaskStore(file);
        FileTaskStore b = new FileTaskStore(dir.resolve(".").resolve("tasks.json")); // another spelling
        a.put(record("srv-a", "1", TaskStatus.WORKING));
        b.put(record("srv-b", "2", TaskStatus.WORKING));
        a.put(record("srv-a", "3", TaskStatus.WORKING));
        b.put(record("srv-a", "1", TaskStatus.INPUT_REQUIRED));
        a.remove("srv-b", "2");
        b.put(record("srv-b", "4", TaskStatus.WORKING));
        for (FileTaskStore s : List.of(a, b, new FileTaskStore(file))) {
            assertThat(s.list("srv-a")).extracting(TaskRecord::taskId, TaskRecord::lastStatus).containsExactly(
                    tuple("1", TaskStatus.INPUT_REQUIRED), tuple("3", TaskStatus.WORKING));
            assertThat(s.list("srv-b")).extracting(TaskRecord::taskId).containsExactly("4");
        }
    }

    @Test
    void twoStoresOnOneFileChangingFromManyThreadsLoseNothingAtTheScaleOfAThousandTasks() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore a = new FileTaskStore(file);
        FileTaskStore b = new FileTaskStore(file);
        int n = 1000;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            FileTaskStore s = w % 2 == 0 ? a : b;
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = writer; i < n; i += 4) {
                    s.put(record("srv-" + (i % 2), "t" + i, TaskStatus.WORKING));
                    if (i % 10 == 0) {
                        s.remove("srv-" + (i % 2), "t" + i);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            assertThat(t.join(Duration.ofMinutes(2))).as("a writer finished").isTrue();
        }
        int expected = n - n / 10;
        assertThat(a.list("srv-0").size() + a.list("srv-1").size()).isEqualTo(expected);
        assertThat(b.list("srv-0")).isEqualTo(a.list("srv-0"));
        assertThat(TaskRecords.read(Files.readString(file))).hasSize(expected);
    }

    @Test
    void theFileFormatIsReadable() {
        String text = TaskRecords.write(List.of(record("s", "1", TaskStatus.WORKING)));
        assertThat(text).contains("\"taskId\":\"1\"").contains("\"ttlMs\":600000")
                .contains("\"lastStatus\":\"working\"");
        assertThat(new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(text);
    }
}
