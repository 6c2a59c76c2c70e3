package dev.loommcp.it;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.tasks.FileTaskStore;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.transport.http.HttpTransport;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The first JVM of {@link TaskRestartTest}: connects to the tasks fixture over HTTP with a {@link FileTaskStore},
 * starts {@code slow_compute} as a task, prints {@code started <taskId>} and then waits for the task until it is
 * killed (SIGKILL: no shutdown hook, no close, no cancel).
 */
final class TaskRestartChild {

    private TaskRestartChild() {
    }

    /**
     * Runs the child.
     *
     * @param args the endpoint, the store file, the task's seconds
     * @throws Exception on any failure (printed; exit code 1)
     */
    public static void main(String[] args) throws Exception {
        McpTasks tasks = McpTasks.newBuilder().store(new FileTaskStore(Path.of(args[1]))).build();
        McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(URI.create(args[0])).build())
                .protocolMode(ProtocolMode.MODERN)
                .requestTimeout(Duration.ofSeconds(30))
                .taskSupport(tasks.support())
                .build();
        client.connect();
        McpTask task = tasks.callToolAsTask("slow_compute", Map.of("seconds", Double.parseDouble(args[2])),
                RequestOptions.DEFAULT);
        System.out.println("started " + task.id());
        System.out.flush();
        task.await(RequestOptions.DEFAULT); // killed long before the task ends
        System.out.println("finished before the kill");
        System.exit(2);
    }
}
