package dev.loommcp.internal.scope;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.concurrent.McpThreadLeakCheck;
import dev.loommcp.internal.json.Json;
import dev.loommcp.Deadline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The JDK's JSON thread dump (what {@code jcmd <pid> Thread.dump_to_file -format=json <file>} writes; here taken in
 * process through {@code HotSpotDiagnosticMXBean.dumpThreads}) lists a scope's threads, virtual and platform, under
 * the scope's own thread containers ({@link Scope#containerNames()}), with their {@code mcp-<purpose>-<n>} names.
 */
@ExtendWith({McpThreadLeakCheck.class, ScopeTest.PlatformThreads.class})
@Timeout(value = 60, unit = SECONDS)
class ScopeThreadDumpTest {

    @Test
    void theJsonThreadDumpListsAScopesThreadsUnderItsContainers(@TempDir Path dir) throws Exception {
        CountDownLatch started = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        Path file = dir.resolve("threads.json");
        try (Scope<Object, Void> s = Scope.open("dumped", Joiner.awaitAll(), Deadline.NONE)) {
            for (int i = 0; i < 2; i++) {
                s.fork("dump-probe", () -> {
                    started.countDown();
                    release.await();
                    return null;
                });
            }
            s.forkPlatform("dump-pipe", () -> {
                started.countDown();
                release.await();
                return null;
            });
            assertThat(started.await(30, SECONDS)).isTrue();
            dev.loommcp.testing.ThreadDumps.toJson(file);
            release.countDown();
            s.join();

            List<String> containers = s.containerNames();
            assertThat(containers).hasSize(2);
            JsonNode dump = Json.mapper().readTree(Files.readString(file)).path("threadDump");
            List<String> names = new ArrayList<>();
            for (JsonNode container : dump.path("threadContainers")) {
                if (containers.contains(container.path("container").asString())) {
                    container.path("threads").forEach(t -> names.add(t.path("name").asString()));
                }
            }
            assertThat(names).as("threads under %s in %s", containers, file).hasSize(3);
            assertThat(names).filteredOn(n -> n.matches("mcp-dump-probe-\\d+")).hasSize(2);
            assertThat(names).filteredOn(n -> n.matches("mcp-dump-pipe-\\d+")).hasSize(1);
        }
    }
}
