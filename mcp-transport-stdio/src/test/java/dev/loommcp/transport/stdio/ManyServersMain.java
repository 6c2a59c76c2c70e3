package dev.loommcp.transport.stdio;

import dev.loommcp.McpClient;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run in a separate JVM with a small virtual-thread carrier pool by {@link StdioCarrierStarvationTest}: opens
 * {@code N} clients over {@code tiny-server.sh}, checks that a fresh virtual thread still runs, calls a tool on every
 * server from virtual threads, closes everything and checks that no child process is left. Prints progress lines to
 * stdout ({@code OPENED n}, {@code VIRTUAL-THREAD-RAN}, {@code CALLED n}, {@code CLOSED}, {@code OK}); exits 0 on
 * success, 3 to skip (a too small file-descriptor limit), 1 on failure. Every wait is bounded.
 */
public final class ManyServersMain {

    private ManyServersMain() {
    }

    /**
     * Entry point.
     *
     * @param args the script path and the number of servers
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String script = args[0];
        int count = Integer.parseInt(args[1]);
        long fdLimit = openFilesLimit();
        // three pipes per server plus what the JVM itself holds
        long needed = 3L * count + 256;
        if (fdLimit >= 0 && fdLimit < needed) {
            System.out.println("SKIP the open-files limit is " + fdLimit + ", " + needed + " are needed for "
                    + count + " servers (raise it with ulimit -n)");
            System.exit(3);
        }
        List<McpClient> clients = new ArrayList<>();
        int status = 1;
        try {
            for (int i = 0; i < count; i++) {
                StdioTransport t = StdioTransport.newBuilder("sh", script)
                        .stdinCloseGrace(Duration.ofSeconds(5))
                        .build();
                McpClient c = McpClient.newBuilder(t).build();
                clients.add(c);
                c.connect(RequestOptions.ofTimeout(Duration.ofSeconds(30)));
                if ((i + 1) % 50 == 0 || i < 10) {
                    System.out.println("OPENED " + (i + 1));
                }
            }
            // the documented OS-thread cost: three pipe threads per server, plus the JDK's process reaper
            long pipeThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(th -> th.getName().matches("mcp-stdio-(reader|stderr|writer)-\\d+")).count();
            long reapers = Thread.getAllStackTraces().keySet().stream()
                    .filter(th -> th.getName().startsWith("process reaper")).count();
            System.out.println("THREADS pipe=" + pipeThreads + " reaper=" + reapers);
            // a virtual thread started now must run while every server is open
            CountDownLatch ran = new CountDownLatch(1);
            Thread.ofVirtual().start(ran::countDown);
            if (!ran.await(20, TimeUnit.SECONDS)) {
                System.out.println("FAIL a fresh virtual thread did not run within 20 s with " + count
                        + " servers open");
                return;
            }
            System.out.println("VIRTUAL-THREAD-RAN");
            AtomicInteger answered = new AtomicInteger();
            List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> callers = new ArrayList<>();
            for (McpClient c : clients) {
                callers.add(Thread.ofVirtual().start(() -> {
                    try {
                        CallToolResult r = c.callTool("ping", Map.of(),
                                RequestOptions.ofTimeout(Duration.ofSeconds(30)));
                        if (r.content().get(0) instanceof TextContent tc && tc.text().startsWith("pong ")) {
                            answered.incrementAndGet();
                        } else {
                            problems.add("unexpected result " + r);
                        }
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            for (Thread th : callers) {
                if (!th.join(Duration.ofSeconds(60))) {
                    System.out.println("FAIL a tool call did not return within 60 s");
                    return;
                }
            }
            System.out.println("CALLED " + answered.get());
            if (answered.get() != count) {
                System.out.println("FAIL only " + answered.get() + " of " + count + " servers answered; "
                        + problems.stream().limit(3).toList());
                return;
            }
            status = 0;
        } finally {
            for (McpClient c : clients) {
                c.close();
            }
            System.out.println("CLOSED");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive)
                    && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            long left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count();
            if (left > 0) {
                System.out.println("FAIL " + left + " child processes left after closing every client");
                status = 1;
            }
            if (status == 0) {
                System.out.println("OK");
            }
            System.out.flush();
            System.exit(status);
        }
    }

    /** Returns the soft limit of open files from {@code /proc/self/limits}, or -1 when unknown. */
    private static long openFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).strip().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }
}
