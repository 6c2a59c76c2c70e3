package dev.loommcp;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDK's JSON thread dump ({@code jcmd <pid> Thread.dump_to_file -format=json <file>}; here in process through
 * {@code HotSpotDiagnosticMXBean.dumpThreads}) lists each client's threads, by their {@code mcp-<purpose>-<n>} names,
 * under that client's own thread containers (its scopes' executors), apart from another client's.
 */
class ClientThreadDumpTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** Connects a client and gives it work that holds threads: an async call the server holds; its thread names. */
    private Set<String> busyClient(List<CompletableFuture<?>> calls) throws Exception {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        Session s = sessions.connected(Mode.BLOCKING, t -> t.hold("tools/call"), b -> b);
        calls.add(s.client().callToolAsync("held", Map.of(), RequestOptions.DEFAULT));
        s.server().awaitRequest("tools/call");
        return dev.loommcp.internal.concurrent.McpThreads.live().stream().filter(t -> !before.threadIds().contains(t.threadId()))
                .map(Thread::getName).collect(Collectors.toSet());
    }

    @Test
    void theJsonThreadDumpListsEachClientsThreadsUnderItsOwnContainers(@TempDir Path dir) throws Exception {
        List<CompletableFuture<?>> calls = new java.util.ArrayList<>();
        Set<String> first = busyClient(calls);
        Set<String> second = busyClient(calls);
        assertThat(first).as("the first client's threads").anyMatch(n -> n.startsWith("mcp-events-"))
                .anyMatch(n -> n.startsWith("mcp-async-"));
        assertThat(second).anyMatch(n -> n.startsWith("mcp-events-"));

        Path file = dir.resolve("threads.json");
        dev.loommcp.testing.ThreadDumps.toJson(file);
        calls.forEach(c -> c.cancel(true));

        Map<String, String> containerOf = new HashMap<>();
        JsonNode dump = Json.mapper().readTree(Files.readString(file)).path("threadDump");
        for (JsonNode container : dump.path("threadContainers")) {
            String name = container.path("container").asString();
            container.path("threads").forEach(t -> containerOf.put(t.path("name").asString(), name));
        }
        Set<String> firstContainers = containersOf(first, containerOf);
        Set<String> secondContainers = containersOf(second, containerOf);
        assertThat(firstContainers).as("the first client's containers").isNotEmpty()
                .allMatch(c -> c.startsWith("java.util.concurrent.ThreadPerTaskExecutor@"));
        assertThat(firstContainers).as("no container holds threads of both clients")
                .doesNotContainAnyElementsOf(secondContainers);
    }

    private static Set<String> containersOf(Set<String> threads, Map<String, String> containerOf) {
        Set<String> containers = new HashSet<>();
        for (String t : threads) {
            assertThat(containerOf).as("the dump lists " + t).containsKey(t);
            containers.add(containerOf.get(t));
        }
        return containers;
    }
}
