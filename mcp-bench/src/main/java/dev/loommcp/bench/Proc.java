package dev.loommcp.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Figures about this JVM and its child processes, read from the JDK and from Linux's {@code /proc}. */
final class Proc {

    /** Linux's USER_HZ: the unit of utime and stime in /proc/PID/stat. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    private Proc() {
    }

    /** CPU time (user + system) of this whole JVM so far, in nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Bytes allocated on the heap by every thread of this JVM so far (virtual threads count on their carriers). */
    static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
    }

    /** CPU time of every live descendant process of this JVM (the server), in nanoseconds; 10 ms resolution. */
    static long childrenCpuNanos() {
        return ProcessHandle.current().descendants().mapToLong(p -> cpuNanos(p.pid())).sum();
    }

    private static long cpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the command name is in parentheses and may hold spaces: fields count from after the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return 0; // gone, or not Linux
        }
    }

    /** Peak resident set size of this JVM (VmHWM), in bytes; -1 when /proc is not there. */
    static long peakRssBytes() {
        return statusField("VmHWM:");
    }

    /** Current resident set size of this JVM (VmRSS), in bytes; -1 when /proc is not there. */
    static long rssBytes() {
        return statusField("VmRSS:");
    }

    private static long statusField(String name) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/status"));
            for (String line : lines) {
                if (line.startsWith(name)) {
                    String kb = line.substring(name.length()).trim().split("\\s+")[0];
                    return Long.parseLong(kb) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    /** Heap in use after a full collection, in bytes. */
    static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
