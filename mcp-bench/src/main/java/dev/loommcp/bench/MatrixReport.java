package dev.loommcp.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;

/**
 * The matrix's report: one table of every client grouped by transport (stdio, HTTP with JSON answers, HTTP with SSE
 * answers), each figure with its ratio to the raw loop of the same transport and round; then the targets table (issue
 * 13 and issue 10's era target: measured, target, met or missed; reported, never asserted); then the details.
 */
final class MatrixReport {

    /** One comparison of the "ahead of the peers" row: a figure and whether higher is better. */
    private record Measure(String label, String path, boolean higherIsBetter) {
    }

    /**
     * The figures of the "ahead of the peers" rows: the rows (calls/s cold, sequential and in flight, client
     * CPU per call). Ready time and peak RSS are in the main table but not compared here: against Node they measure
     * a JVM's start and footprint, not the client.
     */
    private static final List<Measure> AHEAD = List.of(
            new Measure("cold", "cold.perSecond", true),
            new Measure("seq", "seq.perSecond", true),
            new Measure("64 in flight", "echo64.perSecond", true),
            new Measure("512 in flight", "echo512.perSecond", true),
            new Measure("CPU per call", "cpuUsPerEcho", false));

    private final Report r;
    private final PrintStream out;

    MatrixReport(Report report) {
        this.r = report;
        this.out = report.out();
    }

    void print() {
        mainTable();
        targets();
        out.println();
        r.details(false);
    }

    private void mainTable() {
        out.println("## Results (median of " + r.rounds().size() + " round(s); in parentheses: the median of the"
                + " per-round ratio to the raw loop of the same transport)");
        out.println();
        out.println("| client | ready ms | cold calls/s | seq calls/s | seq p50 / p99 µs | echo, 64 in flight /s"
                + " | echo, 512 in flight /s | client CPU per call | allocation per call | peak RSS MB"
                + " | failed calls |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (String group : Clients.GROUPS) {
            List<String> members = r.clients().stream().filter(c -> Clients.group(c).equals(group)).toList();
            if (members.isEmpty()) {
                continue;
            }
            out.printf("| **%s** | | | | | | | | | | |%n", group);
            for (String c : members) {
                String rss = Bench.fmt("%.0f", r.median(c, "peakRssMb"));
                if (r.compared(c)) {
                    rss += " (" + Bench.fmt("%+.0f", r.difference(c, "peakRssMb")) + ")";
                }
                long crashed = r.rounds().stream().flatMap(List::stream)
                        .filter(m -> c.equals(m.get("client")) && m.containsKey("crashed")).count();
                String alloc = Double.isNaN(r.median(c, "allocBytesPerEcho")) ? "n/a"
                        : r.withRatio(c, "allocBytesPerEcho", "%,.0f") + " B";
                out.printf("| %s | %s | %s | %s | %s / %s | %s | %s | %s µs | %s | %s | %s |%n",
                        Clients.label(c),
                        r.withRatio(c, "readyColdMs", "%.0f"),
                        r.withRatio(c, "cold.perSecond", "%,.0f"),
                        r.withRatio(c, "seq.perSecond", "%,.0f"),
                        Bench.fmt("%.0f", r.median(c, "seq.p50us")), Bench.fmt("%.0f", r.median(c, "seq.p99us")),
                        r.withRatio(c, "echo64.perSecond", "%,.0f"),
                        r.withRatio(c, "echo512.perSecond", "%,.0f"),
                        r.withRatio(c, "cpuUsPerEcho", "%.0f"),
                        alloc,
                        rss,
                        failed(c) + (crashed > 0 ? " (" + crashed + " run(s) did not complete)" : ""));
            }
        }
        out.println();
        out.println("ready = process start to initialized (or discovered), first connect in a fresh process, server"
                + " start included (over HTTP the client starts its own server). cold = calls/s over the first"
                + " sequential echo calls right after that connect, before any warm-up. Client CPU per call = CPU"
                + " time of the whole client process (all threads, JIT and GC included) over the measured echo phases"
                + " (sequential, 64 and 512 in flight) divided by their calls. Allocation per call = heap bytes"
                + " allocated by the client JVM over the same phases per call (n/a in Node).");
    }

    private long failed(String c) {
        return r.total(c, "failed") + r.total(c, "failedInWarmup");
    }

    private void targets() {
        out.println();
        out.println("## Targets (ratios to the raw loop of the same transport, median of the per-round ratios;"
                + " reported, never asserted)");
        out.println();
        out.println("| target | client | measured | target | met |");
        out.println("|---|---|---|---|---|");
        for (String[] http : new String[][] {
                {"HTTP, JSON answers", "loom-http-legacy", "loom-http-modern"},
                {"HTTP, SSE answers", "loom-http-legacy-sse", "loom-http-modern-sse"}}) {
            for (int k = 1; k < http.length; k++) {
                String c = http[k];
                if (!present(c)) {
                    continue;
                }
                ratioRow(http[0] + ": sequential calls/s", c, r.ratio(c, "seq.perSecond"), ">= 0.8x", v -> v >= 0.8);
                ratioRow(http[0] + ": echo, 64 in flight", c, r.ratio(c, "echo64.perSecond"), ">= 0.9x",
                        v -> v >= 0.9);
                ratioRow(http[0] + ": echo, 512 in flight", c, r.ratio(c, "echo512.perSecond"), ">= 0.9x",
                        v -> v >= 0.9);
                ratioRow(http[0] + ": client CPU per call", c, r.ratio(c, "cpuUsPerEcho"), "<= 1.3x",
                        v -> v <= 1.3);
            }
        }
        // over stdio the era of the raw loop: loom-legacy against raw (the default loom finds the modern era on the
        // dual server, whose extra bytes are issue 10's row below)
        String stdio = present("loom-legacy") ? "loom-legacy" : "loom";
        if (present(stdio)) {
            ratioRow("stdio: client CPU per sequential call", stdio, r.ratio(stdio, "seq.cpuUsPerCall"), "<= 1.3x",
                    v -> v <= 1.3);
            ratioRow("stdio: cold sequential calls/s", stdio, r.ratio(stdio, "cold.perSecond"), ">= 0.7x",
                    v -> v >= 0.7);
        }
        failedRow();
        ahead("stdio", stdio, "sdk-async", "sdk-sync", "ts");
        ahead("HTTP, JSON answers", "loom-http-legacy", "sdk-http", "ts-http");
        ahead("HTTP, SSE answers", "loom-http-legacy-sse", "sdk-http-sse", "ts-http-sse");
        if (r.clients().contains("loom-modern") && r.clients().contains("loom-legacy")) {
            ratioRow("stdio, modern era / legacy era: sequential calls/s (issue 10)", "loom-modern / loom-legacy",
                    r.ratio("loom-modern", "loom-legacy", "seq.perSecond"), ">= 0.9x", v -> v >= 0.9);
            ratioRow("stdio, modern era / legacy era: echo, 512 in flight (issue 10)", "loom-modern / loom-legacy",
                    r.ratio("loom-modern", "loom-legacy", "echo512.perSecond"), ">= 0.9x", v -> v >= 0.9);
        }
        out.println();
        out.println("Peers: the official Java SDK's and the TypeScript SDK's clients speak the legacy era, so each is"
                + " compared with loom-mcp pinned to the legacy era on the same transport (the same wire); the"
                + " comparison covers calls/s (cold, sequential, 64 and 512 in flight) and client CPU per call.");
    }

    /** Whether the run has the client, with a raw loop to compare it with. */
    private boolean present(String client) {
        return r.clients().contains(client) && r.compared(client);
    }

    private void ratioRow(String target, String client, double v, String bar, DoublePredicate ok) {
        out.printf("| %s | %s | %s | %s | %s |%n", target, client, Bench.fmt("%.2fx", v), bar, met(v, ok));
    }

    private static String met(double v, DoublePredicate ok) {
        return Double.isNaN(v) ? "n/a" : ok.test(v) ? "met" : "**missed**";
    }

    private void failedRow() {
        long total = 0;
        List<String> which = new ArrayList<>();
        for (String c : r.clients()) {
            long f = failed(c);
            long crashed = r.rounds().stream().flatMap(List::stream)
                    .filter(m -> c.equals(m.get("client")) && m.containsKey("crashed")).count();
            if (f > 0 || crashed > 0) {
                which.add(c + " " + f + (crashed > 0 ? " and " + crashed + " incomplete run(s)" : "")
                        + (Clients.knownFailures(c) != null ? " (known, see the note)" : ""));
            }
            total += f + crashed;
        }
        out.printf("| zero failed calls everywhere | all | %d%s | 0 | %s |%n", total,
                which.isEmpty() ? "" : ": " + String.join(", ", which), total == 0 ? "met" : "**missed**");
    }

    /** loom-mcp ahead of each peer on every figure of the main table that both have. */
    private void ahead(String group, String loom, String... peers) {
        List<String> present = List.of(peers).stream().filter(p -> r.clients().contains(p)).toList();
        if (!r.clients().contains(loom) || present.isEmpty()) {
            return;
        }
        int compared = 0;
        List<String> behind = new ArrayList<>();
        for (String peer : present) {
            for (Measure m : AHEAD) {
                double ratio = r.ratio(loom, peer, m.path());
                if (Double.isNaN(ratio)) {
                    continue;
                }
                compared++;
                if (m.higherIsBetter() ? ratio <= 1 : ratio >= 1) {
                    behind.add(peer + " " + m.label() + " (" + Bench.fmt("%.2fx", ratio) + ")");
                }
            }
            if (failed(loom) > failed(peer)) {
                behind.add(peer + " failed calls");
            }
        }
        out.printf("| %s: loom-mcp ahead of %s on every figure | %s | ahead on %d of %d%s | all | %s |%n", group,
                String.join(", ", present), loom, compared - behind.size(), compared,
                behind.isEmpty() ? "" : "; behind or even: " + String.join(", ", behind),
                compared == 0 ? "n/a" : behind.isEmpty() ? "met" : "**missed**");
    }

    /** For tests: the rows of the targets table as printed. */
    static List<String> targetRows(String report) {
        String from = report.substring(report.indexOf("## Targets"));
        return from.lines().skip(4).takeWhile(l -> l.startsWith("|")).toList();
    }
}
