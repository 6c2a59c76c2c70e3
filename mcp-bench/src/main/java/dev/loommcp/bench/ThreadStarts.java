package dev.loommcp.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The thread check of the before/after comparison: how many threads one sequential call starts, and how often it
 * parks a platform thread, measured in the client's own JVM around a run of sequential calls.
 *
 * <p>{@link java.lang.management.ThreadMXBean#getTotalStartedThreadCount()} counts platform threads only, so the
 * count comes from a JFR recording made in the process ({@link Recording}, Java 21 API) with {@code
 * jdk.VirtualThreadStart} (off in JFR's default settings; every virtual thread the JVM starts) and {@code
 * jdk.ThreadStart} (every platform thread) enabled; the MXBean's platform count is kept beside it as a cross-check.
 * {@code jdk.ThreadPark} with threshold 0 counts parks of platform threads, carriers included (a virtual thread's own
 * park is not a JFR event): a new hand-off to another thread wakes an idle carrier, which parks again, so it shows as
 * about one more park per call on an otherwise idle client. That figure is an indicator, not an exact hand-off count.
 *
 * <p>JFR starts its own threads when the first recording starts; a throwaway recording before the measured one keeps
 * them out of the count. The calls run on a virtual thread started before the measured recording (as the sequential
 * phase's calls do), so the harness's own thread is not counted either.
 */
final class ThreadStarts {

    private ThreadStarts() {
    }

    /**
     * Runs {@code calls} sequential calls of {@code call} from one virtual thread under the recording and returns the
     * counts per call: {@code virtualPerCall}, {@code platformPerCall} (JFR), {@code platformMxPerCall} (the
     * MXBean), {@code platformParksPerCall}, {@code calls}, and {@code started}: the started threads' names (digits
     * folded to {@code #}) with their counts.
     *
     * @param calls how many calls
     * @param call  one call; a failure ends the check with that exception
     * @return the counts
     * @throws Exception when a call fails or the recording cannot be read
     */
    static Map<String, Object> measure(int calls, Callable<?> call) throws Exception {
        try (Recording warm = new Recording()) {
            warm.start(); // JFR's own threads start here, before the measured window
            warm.stop();
        }
        Path file = Files.createTempFile("loom-mcp-bench-threads-", ".jfr");
        Map<String, Object> out = new LinkedHashMap<>();
        Exception[] failure = {null};
        long[] platformMx = {0};
        try (Recording rec = new Recording()) {
            rec.enable("jdk.VirtualThreadStart");
            rec.enable("jdk.ThreadStart");
            rec.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withoutStackTrace();
            var mx = ManagementFactory.getThreadMXBean();
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch recording = new CountDownLatch(1);
            Thread caller = Thread.ofVirtual().name("bench-threads").start(() -> {
                // the thread runs (its own start event is emitted) before the recording starts
                running.countDown();
                try {
                    recording.await();
                } catch (InterruptedException e) {
                    failure[0] = e;
                    return;
                }
                long before = mx.getTotalStartedThreadCount();
                try {
                    for (int i = 0; i < calls; i++) {
                        call.call();
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
                platformMx[0] = mx.getTotalStartedThreadCount() - before;
            });
            running.await();
            rec.start();
            recording.countDown();
            caller.join();
            rec.stop();
            rec.dump(file);
        }
        try {
            if (failure[0] != null) {
                throw failure[0];
            }
            long virtual = 0;
            long platform = 0;
            long parks = 0;
            Map<String, Long> names = new TreeMap<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                switch (e.getEventType().getName()) {
                    case "jdk.VirtualThreadStart" -> {
                        virtual++;
                        names.merge("virtual " + name(e), 1L, Long::sum);
                    }
                    case "jdk.ThreadStart" -> {
                        RecordedThread t = e.getThread("thread");
                        if (t != null && t.isVirtual()) {
                            virtual++; // a JDK that reports virtual threads here too: counted once either way
                        } else {
                            platform++;
                        }
                        names.merge((t != null && t.isVirtual() ? "virtual " : "platform ")
                                + fold(t == null ? null : t.getJavaName()), 1L, Long::sum);
                    }
                    case "jdk.ThreadPark" -> {
                        RecordedThread t = e.getThread();
                        if (t == null || !t.isVirtual()) {
                            parks++;
                        }
                    }
                    default -> {
                        // not enabled
                    }
                }
            }
            out.put("calls", calls);
            out.put("virtualPerCall", virtual / (double) calls);
            out.put("platformPerCall", platform / (double) calls);
            out.put("platformMxPerCall", platformMx[0] / (double) calls);
            out.put("platformParksPerCall", parks / (double) calls);
            out.put("started", names);
            return out;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String name(RecordedEvent e) {
        RecordedThread t = e.getThread();
        return fold(t == null ? null : t.getJavaName());
    }

    /** A thread name with its digits folded, so that "worker-17" and "worker-18" count together. */
    static String fold(String name) {
        if (name == null || name.isEmpty()) {
            return "(unnamed)";
        }
        return name.replaceAll("[0-9]+", "#");
    }
}
