package dev.loommcp.it;

import dev.loommcp.McpClient;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.store.jdbc.JdbcTaskStore;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.transport.http.HttpTransport;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One replica of {@link FleetTasksTest}: an {@link McpTasks} on a {@link JdbcTaskStore} (the test's schema, a pool of
 * 8 connections) with an owner id, a short lease and a result listener that appends each delivered task id to its
 * own file (one {@code write} per line, in append mode: a line written before a SIGKILL is kept). It starts its
 * share of {@code slow_compute} tasks, writes their ids to a file, prints {@code started <n>}, and then drives its
 * tasks and claims those of dead replicas until its standard input ends (then it closes its client, releasing its
 * leases, and exits 0) or it is killed.
 */
final class FleetTaskChild {

    private FleetTaskChild() {
    }

    /**
     * Runs the replica.
     *
     * @param args endpoint, JDBC URL, owner id, tasks to start, lease ms, deliveries file, started-ids file
     * @throws Exception on any failure (printed; exit code 1)
     */
    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        String owner = args[2];
        int count = Integer.parseInt(args[3]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
        FileOutputStream deliveries = new FileOutputStream(args[5], true);
        McpTasks tasks = McpTasks.newBuilder()
                .store(JdbcTaskStore.create(FleetDatabase.pool(args[1], 8), Duration.ofSeconds(5)))
                .owner(owner).leaseLength(lease).claimInterval(lease.dividedBy(4))
                .resultRetention(Duration.ofMinutes(30))
                .resultListener(ended -> {
                    try {
                        deliveries.write((ended.taskId() + "\n").getBytes(StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .build();
        McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(endpoint).build())
                .protocolMode(ProtocolMode.MODERN).requestTimeout(Duration.ofSeconds(30))
                .taskSupport(tasks.support()).build();
        client.connect();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            McpTask t = tasks.callToolAsTask("slow_compute", Map.of("seconds", 3 + i % 4, "label", owner + "-" + i),
                    RequestOptions.ofTimeout(Duration.ofSeconds(30)));
            ids.add(t.id());
        }
        Files.write(Path.of(args[6]), ids, StandardCharsets.UTF_8);
        System.out.println("started " + ids.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes our standard input
        }
        client.close(); // a clean close: the leases held now are released
        deliveries.close();
        System.exit(0);
    }
}
