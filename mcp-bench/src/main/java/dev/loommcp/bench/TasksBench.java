package dev.loommcp.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --tasks}: many concurrent tasks against the tasks fixture ({@code test-servers/tasks-fixture.mjs}), over
 * stdio and over HTTP. Each task is {@code slow_compute} of a few seconds with a server poll interval, started with
 * {@code callToolAsTask}; nobody awaits them: each handle's listener counts down when its task ends, so every thread
 * alive while they run is the driver's (a poll in flight) or the client's own. Prints a markdown table: wall time,
 * peak platform and virtual threads, peak heap, {@code tasks/get} per task against what the server's interval allows,
 * and failures.
 *
 * <p>Options: {@code --count N} (default 1000), {@code --seconds S} (task length, default 3), {@code --poll-ms MS}
 * (the server's interval, default 500), {@code --transports stdio,http}, {@code --fixture PATH}, {@code --push}
 * (also hear status pushed through {@code subscriptions/listen}; default off, so the polls are the whole story).
 */
final class TasksBench {

    private final int count;
    private final double seconds;
    private final int pollMs;
    private final boolean push;
    private final Path fixture;

    private TasksBench(int count, double seconds, int pollMs, boolean push, Path fixture) {
        this.count = count;
        this.seconds = seconds;
        this.pollMs = pollMs;
        this.push = push;
        this.fixture = fixture;
    }

    /**
     * Runs the tasks benchmark.
     *
     * @param args the arguments after {@code --tasks}
     * @param out  where the table goes (progress goes to stderr)
     * @return 0 when every task completed, 2 when any failed
     * @throws Exception on a broken set-up
     */
    static int run(List<String> args, PrintStream out) throws Exception {
        int count = 1000;
        double seconds = 3;
        int pollMs = 500;
        boolean push = false;
        Path fixture = Path.of("test-servers", "tasks-fixture.mjs");
        List<String> transports = List.of("stdio", "http");
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--count" -> count = Integer.parseInt(args.get(++i));
                case "--seconds" -> seconds = Double.parseDouble(args.get(++i));
                case "--poll-ms" -> pollMs = Integer.parseInt(args.get(++i));
                case "--push" -> push = true;
                case "--fixture" -> fixture = Path.of(args.get(++i));
                case "--transports" -> transports = List.of(args.get(++i).split(","));
                default -> throw new IllegalArgumentException("unknown --tasks argument " + args.get(i)
                        + " (--count N, --seconds S, --poll-ms MS, --push, --fixture PATH, --transports stdio,http)");
            }
        }
        if (!Files.isRegularFile(fixture)) {
            throw new IllegalArgumentException("no tasks fixture at " + fixture.toAbsolutePath()
                    + " (run from the repository root, or give --fixture PATH)");
        }
        TasksBench bench = new TasksBench(count, seconds, pollMs, push, fixture.toAbsolutePath());
        List<Row> rows = new ArrayList<>();
        for (String t : transports) {
            rows.add(switch (t) {
                case "stdio" -> bench.stdio();
                case "http" -> bench.http();
                default -> throw new IllegalArgumentException("unknown transport " + t + " (stdio or http)");
            });
        }
        out.printf(Locale.ROOT, "# loom-mcp tasks benchmark: %,d concurrent tasks%n%n", count);
        out.printf(Locale.ROOT, "slow_compute %.1f s each, server pollIntervalMs %d, push %s; JDK %s, %d CPUs%n%n",
                seconds, pollMs, push ? "on" : "off", Runtime.version(),
                Runtime.getRuntime().availableProcessors());
        out.println("| transport | tasks | completed | failures | wall time | peak platform threads "
                + "| virtual threads: peak / peak after start / fewest while most tasks run | peak heap | tasks/get per task "
                + "| allowed by the interval |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        boolean failed = false;
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %.1f s | %d | %d / %d / %d | %.0f MiB | %.2f | ≤ %.1f |%n",
                    r.transport, count, r.completed, r.failures, r.wallSeconds, r.peakPlatformThreads,
                    r.peakVirtualThreads, r.peakVirtualWhileWaiting, r.fewestVirtualWhileWaiting, r.peakHeapBytes / 1048576.0, r.pollsPerTask, r.allowedPollsPerTask);
            failed |= r.failures > 0;
            if (!r.failureSamples.isEmpty()) {
                out.println();
                out.println("failures (" + r.transport + ", first few): " + r.failureSamples);
            }
        }
        out.println();
        out.println("Peak virtual threads: sampled every 250 ms from a JSON thread dump; \"all\" includes the "
                + "starting phase (one starter thread per task, at most 64 creating at once), \"after start\" is "
                + "once every task was created and nobody awaits them: only polls in flight hold threads; \"fewest\" is the lowest sample while more than half the tasks are "
                + "still open (-1: no sample then), the threads left between two waves of polls. "
                + "tasks/get per task counts every poll sent; allowed: one per interval over each task's own "
                + "wall time (from its creation call to its end), plus the first.");
        return failed ? 2 : 0;
    }

    /** One line of the table. */
    record Row(String transport, int completed, int failures, double wallSeconds, int peakPlatformThreads,
               int peakVirtualThreads, int peakVirtualWhileWaiting, int fewestVirtualWhileWaiting, long peakHeapBytes, double pollsPerTask, double allowedPollsPerTask,
               List<String> failureSamples) {
    }

    private Row stdio() throws Exception {
        List<String> argv = List.of("node", fixture.toString(), "--stdio");
        return measure("stdio", new CountingTransport(StdioTransport.newBuilder(argv).build()));
    }

    private Row http() throws Exception {
        Process p = new ProcessBuilder("node", fixture.toString(), "--http", "0")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            URI endpoint = endpoint(line);
            Thread.ofPlatform().daemon().name("tasks-fixture-stdout").start(() -> {
                try {
                    while (r.readLine() != null) {
                        // drained
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            });
            return measure("http", new CountingTransport(HttpTransport.newBuilder(endpoint).build()));
        } finally {
            p.getOutputStream().close();
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    /** The endpoint from the fixture's first line: a URL, or a port. */
    static URI endpoint(String line) throws IOException {
        if (line == null) {
            throw new IOException("the tasks fixture exited before it said its port");
        }
        Matcher url = Pattern.compile("https?://\\S+").matcher(line);
        if (url.find()) {
            return URI.create(url.group());
        }
        Matcher port = Pattern.compile("(\\d{2,5})").matcher(line);
        if (port.find()) {
            return URI.create("http://127.0.0.1:" + port.group(1) + "/mcp");
        }
        throw new IOException("the tasks fixture did not say its port: " + line);
    }

    private Row measure(String transport, CountingTransport counting) throws Exception {
        System.err.printf(Locale.ROOT, "tasks: %s, %,d tasks...%n", transport, count);
        McpTasks tasks = McpTasks.newBuilder().push(push).build();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        threads.resetPeakThreadCount();
        AtomicInteger peakVirtual = new AtomicInteger();
        AtomicInteger peakVirtualWaiting = new AtomicInteger();
        AtomicInteger troughVirtualWaiting = new AtomicInteger(Integer.MAX_VALUE);
        java.util.concurrent.atomic.AtomicBoolean waiting = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicLong peakHeap = new AtomicLong();
        CountDownLatch ended = new CountDownLatch(count);
        AtomicInteger completed = new AtomicInteger();
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Map<String, Long> taskWallNanos = new ConcurrentHashMap<>();
        AtomicInteger failureCount = new AtomicInteger();
        try (McpClient client = McpClient.newBuilder(counting)
                .protocolMode(ProtocolMode.MODERN)
                .requestTimeout(Duration.ofSeconds(120))
                .taskSupport(tasks.support())
                .build()) {
            client.connect();
            counting.polls.set(0);
            Thread sampler = Thread.ofPlatform().daemon().name("tasks-bench-sampler").start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    int v = virtualThreads();
                    peakVirtual.accumulateAndGet(v, Math::max);
                    if (waiting.get()) {
                        peakVirtualWaiting.accumulateAndGet(v, Math::max);
                        if (ended.getCount() > count / 2) { // most tasks still open: a trough between polls
                            troughVirtualWaiting.accumulateAndGet(v, Math::min);
                        }
                    }
                    try {
                        Thread.sleep(250);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            long start = System.nanoTime();
            Semaphore creating = new Semaphore(64); // at most this many tools/call in flight while starting
            try (ExecutorService starters = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < count; i++) {
                    starters.submit(() -> {
                        creating.acquireUninterruptibly();
                        long t0 = System.nanoTime();
                        McpTask task;
                        try {
                            task = tasks.callToolAsTask("slow_compute",
                                    Map.of("seconds", seconds, "pollMs", pollMs), RequestOptions.DEFAULT);
                        } catch (Exception e) {
                            fail(failures, failureCount, "start: " + e);
                            ended.countDown();
                            return null;
                        } finally {
                            creating.release();
                        }
                        CountDownLatch once = new CountDownLatch(1);
                        Runnable end = () -> {
                            if (once.getCount() == 1) {
                                once.countDown();
                                taskWallNanos.put(task.id(), System.nanoTime() - t0);
                                TaskStatus s = task.status();
                                if (s == TaskStatus.COMPLETED) {
                                    completed.incrementAndGet();
                                } else {
                                    fail(failures, failureCount, task.id() + " ended " + s.wireName());
                                }
                                ended.countDown();
                            }
                        };
                        task.addListener((t, s) -> {
                            if (s.status().isTerminal()) {
                                end.run();
                            }
                        });
                        if (task.status().isTerminal()) {
                            end.run();
                        }
                        return null;
                    });
                }
            }
            // the starters are done: from here on, only the driver's threads are alive for the tasks
            waiting.set(true);
            boolean all = ended.await(10, TimeUnit.MINUTES);
            double wall = (System.nanoTime() - start) / 1e9;
            sampler.interrupt();
            sampler.join();
            if (!all) {
                fail(failures, failureCount, ended.getCount() + " tasks never ended within 10 minutes");
            }
            double meanTaskSeconds = taskWallNanos.values().stream().mapToLong(Long::longValue).average()
                    .orElse(0) / 1e9;
            double allowed = meanTaskSeconds * 1000 / pollMs + 1;
            return new Row(transport, completed.get(), failureCount.get(), wall, threads.getPeakThreadCount(),
                    peakVirtual.get(), peakVirtualWaiting.get(),
                    troughVirtualWaiting.get() == Integer.MAX_VALUE ? -1 : troughVirtualWaiting.get(), peakHeap.get(), counting.polls.get() / (double) count, allowed,
                    List.copyOf(failures));
        }
    }

    private static void fail(List<String> samples, AtomicInteger count, String what) {
        count.incrementAndGet();
        if (samples.size() < 5) {
            samples.add(what); // a few samples; a race may keep one or two more
        }
    }

    /** Counts the live virtual threads from a JSON thread dump (the JDK tracks every virtual thread in it). */
    static int virtualThreads() {
        try {
            Path file = Files.createTempFile("tasks-bench-threads", ".json");
            Files.delete(file);
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                String dump = Files.readString(file);
                int n = 0;
                for (int i = dump.indexOf("\"virtual\": true"); i >= 0; i = dump.indexOf("\"virtual\": true", i + 1)) {
                    n++;
                }
                return n;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Passes everything through to a transport, counting the {@code tasks/get} requests sent. */
    static final class CountingTransport implements McpTransport {
        private final McpTransport delegate;
        final AtomicLong polls = new AtomicLong();

        CountingTransport(McpTransport delegate) {
            this.delegate = delegate;
        }

        @Override
        public void open(TransportContext context) throws InterruptedException {
            delegate.open(context);
        }

        @Override
        public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
            if (message instanceof JsonRpcMessage.Request r && r.method().equals("tasks/get")) {
                polls.incrementAndGet();
            }
            delegate.send(message, context);
        }

        @Override
        public void handshakeCompleted(String protocolVersion) {
            delegate.handshakeCompleted(protocolVersion);
        }

        @Override
        public java.util.Optional<McpTransport> probeTransport() {
            return delegate.probeTransport();
        }

        @Override
        public boolean reopenable() {
            return delegate.reopenable();
        }

        @Override
        public void reopen(dev.loommcp.spi.TransportContext context) throws InterruptedException {
            delegate.reopen(context);
        }

        @Override
        public java.util.Optional<String> serverKey() {
            return delegate.serverKey();
        }

        @Override
        public boolean exchangePerRequest() {
            return delegate.exchangePerRequest();
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public dev.loommcp.spi.TransportInfo info() {
            return delegate.info();
        }

        @Override
        public java.util.Optional<String> sessionId() {
            return delegate.sessionId();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
