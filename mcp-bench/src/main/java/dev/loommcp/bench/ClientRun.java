package dev.loommcp.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.databind.json.JsonMapper;

/**
 * One client's run in its own JVM, so that its CPU time and peak RSS belong to it alone: start the server and the
 * client (cold ready time), warm up, measure every phase, reconnect a few times (warm ready time), and print one line
 * {@code RESULT {json}} on stdout. Progress and errors go to stderr.
 *
 * <p>Usage: {@code ClientRun --client NAME --profile quick|full|check [--scale CALLS MS] -- SERVER_ARGV...}
 */
public final class ClientRun {

    private static final PrintStream LOG = System.err;
    private static final int MAX_ERRORS_SHOWN = 5;
    /** The least time an in-flight phase waits for its last calls after it stopped issuing. */
    private static final long DRAIN_MIN_MILLIS = 5_000;
    /** How long the scale run waits for its burst to finish. */
    private static final long BURST_LIMIT_MILLIS = 120_000;
    /** The longest the cold phase may take (a client slower than that reports fewer calls). */
    private static final long COLD_LIMIT_MILLIS = 60_000;

    private final String clientName;
    private final List<String> serverArgv;
    private final LongAdder failed = new LongAdder();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong errorCount = new AtomicLong();

    private ClientRun(String clientName, List<String> serverArgv) {
        this.clientName = clientName;
        this.serverArgv = serverArgv;
    }

    /**
     * Runs one client through a profile, or the scale run, and prints the result line.
     *
     * @param args see the class comment
     * @throws Exception if the client cannot start
     */
    public static void main(String[] args) throws Exception {
        String client = null;
        String profile = "quick";
        int scaleCalls = 0;
        int scaleMillis = 0;
        List<String> server = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--client" -> client = args[++i];
                case "--profile" -> profile = args[++i];
                case "--scale" -> {
                    scaleCalls = Integer.parseInt(args[++i]);
                    scaleMillis = Integer.parseInt(args[++i]);
                }
                case "--" -> {
                    server.addAll(Arrays.asList(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (client == null || server.isEmpty()) {
            throw new IllegalArgumentException("usage: ClientRun --client NAME --profile P [--scale N MS] -- ARGV...");
        }
        ClientRun run = new ClientRun(client, server);
        Map<String, Object> result = scaleCalls > 0
                ? run.scale(scaleCalls, scaleMillis)
                : run.profile(Profile.named(profile));
        result.put("errorsShown", List.copyOf(run.errors));
        System.out.println("RESULT " + JsonMapper.builder().build().writeValueAsString(result));
        System.out.flush();
        System.exit(0);
    }

    // ---- the profile run ----

    private Map<String, Object> profile(Profile p) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("client", clientName);
        long t0 = System.nanoTime();
        BenchClient client = Clients.create(clientName);
        client.start(serverArgv);
        r.put("readyColdMs", millis(System.nanoTime() - t0));
        LOG.printf("[%s] ready in %.1f ms%n", clientName, millis(System.nanoTime() - t0));
        try {
            // cold: the first calls of a fresh process, before any warm-up (JIT, class loading and pools included)
            r.put("cold", sequential(client, COLD_LIMIT_MILLIS, p.coldCalls(), null));
            check(client);
            // warm-up: every code path the measurement takes
            sequential(client, p.warmupMillis() / 3, Long.MAX_VALUE, null);
            inFlight(client, 512, p.warmupMillis() / 3, false);
            inFlight(client, 64, p.warmupMillis() / 6, true);
            inFlight(client, 512, p.warmupMillis() / 6, true);
            long failedInWarmup = failed.sum();

            long cpu0 = Proc.processCpuNanos();
            long srv0 = Proc.childrenCpuNanos();
            long alloc0 = Proc.allocatedBytes();
            Map<String, Object> seq = sequential(client, p.seqMillis(), Long.MAX_VALUE, r);
            Map<String, Object> echo64 = inFlight(client, 64, p.flightMillis(), false);
            Map<String, Object> echo512 = inFlight(client, 512, p.flightMillis(), false);
            long echoCalls = (long) seq.get("calls") + (long) echo64.get("calls") + (long) echo512.get("calls");
            r.put("cpuUsPerEcho", micros(Proc.processCpuNanos() - cpu0) / echoCalls);
            r.put("allocBytesPerEcho", (Proc.allocatedBytes() - alloc0) / (double) echoCalls);
            r.put("serverCpuUsPerEcho", micros(Proc.childrenCpuNanos() - srv0) / echoCalls);
            r.put("seq", seq);
            r.put("echo64", echo64);
            r.put("echo512", echo512);
            if (p.sleepMillis() > 0) {
                r.put("sleep64", inFlight(client, 64, p.sleepMillis(), true));
                r.put("sleep512", inFlight(client, 512, p.sleepMillis(), true));
            }
            if (p.threadCalls() > 0) {
                // after the timed phases, so that the recording does not weigh on them
                r.put("threads", ThreadStarts.measure(p.threadCalls(), () -> {
                    String text = "t";
                    if (!text.equals(client.echo(text))) {
                        throw new IllegalStateException("echo answered a different text");
                    }
                    return null;
                }));
            }
            r.put("failedInWarmup", failedInWarmup);
        } finally {
            client.close();
        }
        double[] warm = new double[p.readyRepeats()];
        for (int i = 0; i < warm.length; i++) {
            long s = System.nanoTime();
            BenchClient again = Clients.create(clientName);
            try {
                again.start(serverArgv);
                warm[i] = millis(System.nanoTime() - s);
                check(again);
            } finally {
                again.close();
            }
        }
        r.put("readyWarmMs", Stats.median(warm));
        r.put("failed", failed.sum());
        r.put("peakRssMb", Proc.peakRssBytes() / 1048576.0);
        r.put("maxHeapMb", Runtime.getRuntime().maxMemory() / 1048576.0);
        return r;
    }

    private void check(BenchClient client) throws Exception {
        String text = "check \"quoted\" \\ \u00e9\u4e2d";
        String got = client.echo(text);
        if (!text.equals(got)) {
            fail(new IllegalStateException("echo answered a different text"));
        }
    }

    /**
     * Sequential echo from one virtual thread for {@code durationMillis} or {@code maxCalls} calls, whichever comes
     * first; rate, latency percentiles and client CPU per call.
     */
    private Map<String, Object> sequential(BenchClient client, long durationMillis, long maxCalls,
                                           Map<String, Object> into) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        long cpu0 = Proc.processCpuNanos();
        long[][] lat = {new long[1 << 16]};
        long[] calls = {0};
        Thread t = Thread.ofVirtual().name("bench-seq").start(() -> {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durationMillis);
            long n = 0;
            long start = System.nanoTime();
            long now = start;
            while (now - end < 0 && n < maxCalls) {
                String text = "m" + n;
                try {
                    if (!text.equals(client.echo(text))) {
                        fail(new IllegalStateException("echo answered a different text"));
                    }
                } catch (Throwable e) {
                    fail(e);
                }
                long after = System.nanoTime();
                if (n == lat[0].length) {
                    lat[0] = Arrays.copyOf(lat[0], (int) n * 2);
                }
                lat[0][(int) n++] = after - now;
                now = after;
            }
            calls[0] = n;
            m.put("seconds", (now - start) / 1e9);
        });
        t.join();
        long n = calls[0];
        long[] l = Arrays.copyOf(lat[0], (int) n);
        Arrays.sort(l);
        m.put("calls", n);
        m.put("perSecond", n / (double) m.get("seconds"));
        m.put("p50us", n == 0 ? 0.0 : l[(int) (n * 0.50)] / 1e3);
        m.put("p99us", n == 0 ? 0.0 : l[(int) Math.min(n - 1, n * 0.99)] / 1e3);
        m.put("cpuUsPerCall", micros(Proc.processCpuNanos() - cpu0) / Math.max(1, n));
        return m;
    }

    /**
     * Keeps {@code width} calls in flight for {@code durationMillis}: one virtual thread per call (or the client's
     * own async API), a semaphore holding the width; then waits for the stragglers. Rate = calls / (first issue to
     * last answer).
     */
    private Map<String, Object> inFlight(BenchClient client, int width, long durationMillis, boolean sleep)
            throws InterruptedException {
        Semaphore permits = new Semaphore(width);
        long cpu0 = Proc.processCpuNanos();
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(durationMillis);
        long issued = 0;
        boolean async = client.asyncNative();
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0 || !permits.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                break;
            }
            String text = "f" + issued;
            String expected = sleep ? "slept 10 ms" : text;
            issued++;
            if (async) {
                CompletableFuture<String> f;
                try {
                    f = sleep ? client.sleepAsync(10) : client.echoAsync(text);
                } catch (Throwable e) {
                    fail(e);
                    permits.release();
                    continue;
                }
                f.whenComplete((got, e) -> {
                    if (e != null) {
                        fail(e);
                    } else if (!expected.equals(got)) {
                        fail(new IllegalStateException("answer differs from " + expected));
                    }
                    permits.release();
                });
            } else {
                Thread.ofVirtual().start(() -> {
                    try {
                        String got = sleep ? client.sleep(10) : client.echo(text);
                        if (!expected.equals(got)) {
                            fail(new IllegalStateException("answer differs from " + expected));
                        }
                    } catch (Throwable e) {
                        fail(e);
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        long drainLimit = Math.max(DRAIN_MIN_MILLIS, 2 * durationMillis);
        if (!permits.tryAcquire(width, drainLimit, TimeUnit.MILLISECONDS)) {
            // a client that cannot finish its calls must not hold up the whole benchmark: count what is still out
            // as failed and go on (those calls keep running in the background of this JVM)
            int stuck = width - permits.availablePermits();
            for (int i = 0; i < stuck; i++) {
                fail(new IllegalStateException(stuck + " call(s) still unanswered " + drainLimit
                        + " ms after the phase ended"));
            }
        }
        long elapsed = System.nanoTime() - start;
        LOG.printf("[%s] %d in flight, %s: %d calls in %.2f s%n", clientName, width, sleep ? "sleep(10)" : "echo",
                issued, elapsed / 1e9);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", issued);
        m.put("seconds", elapsed / 1e9);
        m.put("perSecond", issued / (elapsed / 1e9));
        m.put("cpuUsPerCall", micros(Proc.processCpuNanos() - cpu0) / Math.max(1, issued));
        return m;
    }

    // ---- the scale run ----

    private Map<String, Object> scale(int calls, int sleepMillis) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("client", clientName);
        r.put("calls", calls);
        r.put("sleepMs", sleepMillis);
        r.put("maxHeapMb", Runtime.getRuntime().maxMemory() / 1048576.0);
        BenchClient client = Clients.create(clientName);
        client.start(serverArgv);
        try {
            check(client);
            sequential(client, 500, Long.MAX_VALUE, null);
            burst(client, 1000, 10, null); // warm-up of the in-flight path
            stats(client, "pending", Map.of("reset", true));
            r.put("heapIdleAfterGcMb", Proc.heapAfterGc() / 1048576.0);
            long failedBefore = failed.sum();
            // timed pass: every call released at once
            double seconds = burst(client, calls, sleepMillis, null);
            r.put("seconds", seconds);
            r.put("serverMaxPending", maxPending(client));
            // memory pass: the same burst with a long sleep, and a full GC while every call is still pending
            stats(client, "pending", Map.of("reset", true));
            long[] heap = {-1, -1};
            burst(client, calls, Math.max(sleepMillis, 2000), heap);
            r.put("heapInFlightAfterGcMb", heap[0] / 1048576.0);
            r.put("serverPendingAtGc", heap[1]);
            r.put("failed", failed.sum() - failedBefore);
            r.put("failedInWarmup", failedBefore);
        } finally {
            client.close();
        }
        r.put("heapAfterCloseAfterGcMb", Proc.heapAfterGc() / 1048576.0);
        r.put("peakRssMb", Proc.peakRssBytes() / 1048576.0);
        return r;
    }

    private long maxPending(BenchClient client) throws InterruptedException {
        return stats(client, "maxPending", Map.of());
    }

    /**
     * Reads one figure from the server's {@code stats} tool; -1 when the call fails (a failing client must not end
     * the run: its failures are counted by the calls under test).
     */
    private long stats(BenchClient client, String field, Map<String, Object> args) throws InterruptedException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                String stats = client.callTool("stats", args);
                return JsonMapper.builder().build().readTree(stats).get(field).asLong();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                LOG.printf("[%s] the stats call failed (%s); not counted as a failed call%n", clientName, e);
            }
        }
        return -1;
    }

    /**
     * Starts {@code calls} virtual threads, releases them at once to call sleep(ms), and returns the seconds from
     * release to the last answer. With {@code heap} given, waits until the server holds every call, runs a full GC
     * and stores the heap in use in {@code heap[0]}.
     */
    private double burst(BenchClient client, int calls, int ms, long[] heap) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(calls);
        Thread[] threads = new Thread[calls];
        String expected = "slept " + ms + " ms";
        for (int i = 0; i < calls; i++) {
            threads[i] = Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                    if (!expected.equals(client.sleep(ms))) {
                        fail(new IllegalStateException("answer differs from " + expected));
                    }
                } catch (Throwable e) {
                    fail(e);
                } finally {
                    done.countDown();
                }
            });
        }
        long start = System.nanoTime();
        go.countDown();
        if (heap != null) {
            // wait (on the server's own count, polled) until every call is pending there, then collect
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms / 2);
            long pending = 0;
            while (System.nanoTime() - deadline < 0 && (pending = serverPending(client)) < calls) {
                Thread.sleep(5);
            }
            heap[0] = Proc.heapAfterGc();
            heap[1] = pending;
            LOG.printf("[%s] %d of %d calls pending at the server during the GC%n", clientName, pending, calls);
        }
        if (!done.await(BURST_LIMIT_MILLIS, TimeUnit.MILLISECONDS)) {
            long stuck = done.getCount();
            for (long i = 0; i < stuck; i++) {
                fail(new IllegalStateException(stuck + " call(s) of the burst unanswered after "
                        + BURST_LIMIT_MILLIS + " ms"));
            }
            return (System.nanoTime() - start) / 1e9;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Thread t : threads) {
            t.join();
        }
        return seconds;
    }

    private long serverPending(BenchClient client) throws InterruptedException {
        return stats(client, "pending", Map.of());
    }

    // ---- helpers ----

    private void fail(Throwable e) {
        failed.increment();
        if (errorCount.incrementAndGet() <= MAX_ERRORS_SHOWN) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String what = e.getClass().getName() + ": " + e.getMessage()
                    + (root != e ? " (cause " + root.getClass().getName() + ": " + root.getMessage() + ")" : "");
            errors.add(what);
            LOG.printf("[%s] call failed: %s%n", clientName, what);
        }
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static double micros(long nanos) {
        return nanos / 1e3;
    }
}
