package dev.loommcp.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Prints the tables: medians over rounds and, for each round, the ratio to the raw loop of that same round. */
final class Report {

    private final List<String> clients;
    private final List<List<Map<String, Object>>> rounds;
    private final PrintStream out;

    Report(List<String> clients, List<List<Map<String, Object>>> rounds, PrintStream out) {
        this.clients = clients;
        this.rounds = rounds;
        this.out = out;
    }

    private Map<String, Object> result(int round, String client) {
        return rounds.get(round).stream().filter(m -> client.equals(m.get("client"))).findFirst().orElse(Map.of());
    }

    /** The median over rounds of a metric. */
    double median(String client, String path) {
        double[] v = new double[rounds.size()];
        for (int r = 0; r < v.length; r++) {
            v[r] = Bench.num(result(r, client), path);
        }
        return Stats.median(v);
    }

    /** The median over rounds of (client / its reference raw loop) of the same round. */
    double ratio(String client, String path) {
        return ratio(client, Clients.reference(client), path);
    }

    /** The median over rounds of (client / other) of the same round. */
    double ratio(String client, String other, String path) {
        double[] v = new double[rounds.size()];
        for (int r = 0; r < v.length; r++) {
            v[r] = Bench.num(result(r, client), path) / Bench.num(result(r, other), path);
        }
        return Stats.median(v);
    }

    /** The median over rounds of (client - its reference raw loop) of the same round. */
    double difference(String client, String path) {
        double[] v = new double[rounds.size()];
        for (int r = 0; r < v.length; r++) {
            v[r] = Bench.num(result(r, client), path) - Bench.num(result(r, Clients.reference(client)), path);
        }
        return Stats.median(v);
    }

    /** The sum over rounds of a count. */
    long total(String client, String path) {
        long sum = 0;
        for (int r = 0; r < rounds.size(); r++) {
            double v = Bench.num(result(r, client), path);
            if (!Double.isNaN(v)) {
                sum += (long) v;
            }
        }
        return sum;
    }

    private boolean hasRaw() {
        return clients.contains("raw");
    }

    /** The clients of this run, in table order. */
    List<String> clients() {
        return clients;
    }

    /** The rounds' results. */
    List<List<Map<String, Object>>> rounds() {
        return rounds;
    }

    PrintStream out() {
        return out;
    }

    /** Whether the client has a reference to be compared with (and is not one itself). */
    boolean compared(String client) {
        String reference = Clients.reference(client);
        return clients.contains(reference) && !reference.equals(client);
    }

    String withRatio(String client, String path, String pattern) {
        String v = Bench.fmt(pattern, median(client, path));
        if (!compared(client) || Double.isNaN(median(client, path))) {
            return v;
        }
        return v + " (" + Bench.fmt("%.2f", ratio(client, path)) + "x)";
    }

    /** The results table and the details (the era comparison's report). */
    void print() {
        mainTable();
        details(true);
    }

    private void mainTable() {
        out.println("## Results (median of " + rounds.size() + " round(s); in parentheses: the median of the"
                + " per-round ratio to the raw loop" + (clients.contains("raw-http") ? " of the same transport" : "")
                + ")");
        out.println();
        out.println("| client | ready ms | seq calls/s | seq p50 / p99 µs | echo, 64 in flight /s"
                + " | echo, 512 in flight /s | sleep(10), 64 in flight /s | sleep(10), 512 in flight /s"
                + " | client CPU per call | peak RSS MB | failed calls |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (String c : clients) {
            String rss = Bench.fmt("%.0f", median(c, "peakRssMb"));
            if (compared(c)) {
                rss += " (" + Bench.fmt("%+.0f", difference(c, "peakRssMb")) + ")";
            }
            long failed = total(c, "failed") + total(c, "failedInWarmup");
            long crashed = rounds.stream().flatMap(List::stream)
                    .filter(m -> c.equals(m.get("client")) && m.containsKey("crashed")).count();
            out.printf("| %s | %s | %s | %s / %s | %s | %s | %s | %s | %s µs | %s | %s |%n",
                    Clients.label(c),
                    withRatio(c, "readyColdMs", "%.0f"),
                    withRatio(c, "seq.perSecond", "%,.0f"),
                    Bench.fmt("%.0f", median(c, "seq.p50us")), Bench.fmt("%.0f", median(c, "seq.p99us")),
                    withRatio(c, "echo64.perSecond", "%,.0f"),
                    withRatio(c, "echo512.perSecond", "%,.0f"),
                    withRatio(c, "sleep64.perSecond", "%,.0f"),
                    withRatio(c, "sleep512.perSecond", "%,.0f"),
                    withRatio(c, "cpuUsPerEcho", "%.0f"),
                    rss,
                    failed + (crashed > 0 ? " (" + crashed + " run(s) did not complete)" : ""));
        }
        out.println();
        out.println("ready = process start to initialized, first connect in a fresh JVM (server JVM start included)."
                + " Client CPU per call = CPU time of the whole client JVM (all threads, JIT and GC included) over"
                + " the measured echo phases (sequential, 64 and 512 in flight) divided by their calls.");
        out.println();
    }

    /**
     * The details: per client (warm ready, server CPU, CPU per call per phase, allocation, cold), per round, the
     * first errors, and the verdict tables that apply.
     *
     * @param stdioTargets whether to print the stdio set's own targets table (loom against raw)
     */
    void details(boolean stdioTargets) {
        out.println("### Details");
        out.println();
        out.println("| client | ready ms, warm | server CPU per echo | client CPU per call, sequential"
                + " | client CPU per call, 512 in flight | client CPU per call, sleep(10) 512 in flight"
                + " | client heap allocation per echo | cold calls/s | client CPU per call, cold"
                + " | calls measured per round |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String c : clients) {
            double calls = median(c, "seq.calls") + median(c, "echo64.calls") + median(c, "echo512.calls")
                    + median(c, "sleep64.calls") + median(c, "sleep512.calls");
            out.printf("| %s | %s | %s µs | %s µs | %s µs | %s µs | %s bytes | %s | %s µs | %s |%n", c,
                    withRatio(c, "readyWarmMs", "%.0f"),
                    Bench.fmt("%.1f", median(c, "serverCpuUsPerEcho")),
                    withRatio(c, "seq.cpuUsPerCall", "%.0f"),
                    withRatio(c, "echo512.cpuUsPerCall", "%.0f"),
                    withRatio(c, "sleep512.cpuUsPerCall", "%.0f"),
                    withRatio(c, "allocBytesPerEcho", "%,.0f"),
                    withRatio(c, "cold.perSecond", "%,.0f"),
                    withRatio(c, "cold.cpuUsPerCall", "%.0f"),
                    Bench.fmt("%,.0f", calls));
        }
        out.println();
        out.println("Per round (cold calls/s; seq calls/s; echo 512 in flight /s; client CPU µs per call):");
        out.println();
        for (String c : clients) {
            List<String> each = new ArrayList<>();
            for (int r = 0; r < rounds.size(); r++) {
                Map<String, Object> m = result(r, c);
                each.add(Bench.fmt("%,.0f", Bench.num(m, "cold.perSecond")) + "; "
                        + Bench.fmt("%,.0f", Bench.num(m, "seq.perSecond")) + "; "
                        + Bench.fmt("%,.0f", Bench.num(m, "echo512.perSecond")) + "; "
                        + Bench.fmt("%.0f", Bench.num(m, "cpuUsPerEcho")));
            }
            out.printf("- %s: %s%n", c, String.join(" | ", each));
        }
        errors();
        if (stdioTargets && hasRaw() && clients.contains("loom")) {
            targets();
        }
        if (clients.contains("loom-legacy") && clients.contains("loom-modern")) {
            eraTargets("loom-modern", "loom-legacy", "raw-modern", "raw", "stdio");
        }
        if (clients.contains("loom-http-legacy") && clients.contains("loom-http-modern")) {
            eraTargets("loom-http-modern", "loom-http-legacy", "raw-http-modern", "raw-http", "HTTP");
        }
    }

    /**
     * The era comparison: loom-mcp in the modern era against loom-mcp in the legacy era, same round, same server
     * (the target: modern throughput at least 0.9x legacy over stdio, zero failures).
     */
    private void eraTargets(String modern, String legacy, String rawModern, String rawLegacy, String transport) {
        out.println();
        out.println("### loom-mcp, modern era against legacy era over " + transport
                + " (median of the per-round ratio modern / legacy; reported, never asserted)");
        out.println();
        out.println("| measure | modern / legacy | target |");
        out.println("|---|---|---|");
        eraRow("sequential calls/s", ratio(modern, legacy, "seq.perSecond"), "stdio".equals(transport) ? ">= 0.9x"
                : "");
        eraRow("echo, 512 in flight calls/s", ratio(modern, legacy, "echo512.perSecond"),
                "stdio".equals(transport) ? ">= 0.9x" : "");
        eraRow("client CPU per call", ratio(modern, legacy, "cpuUsPerEcho"), "");
        eraRow("ready, cold", ratio(modern, legacy, "readyColdMs"), "");
        eraRow("ready, warm JVM", ratio(modern, legacy, "readyWarmMs"), "");
        out.printf("| failed calls (modern, legacy) | %d, %d | 0 |%n",
                total(modern, "failed") + total(modern, "failedInWarmup"),
                total(legacy, "failed") + total(legacy, "failedInWarmup"));
        // what the wire itself costs: the same server and the raw loops, which do nothing but the wire
        eraRow("server CPU per echo (loom-mcp's runs)", ratio(modern, legacy, "serverCpuUsPerEcho"), "");
        if (clients.contains(rawModern) && clients.contains(rawLegacy)) {
            eraRow("raw loops, sequential calls/s", ratio(rawModern, rawLegacy, "seq.perSecond"), "");
            eraRow("raw loops, echo, 512 in flight calls/s", ratio(rawModern, rawLegacy, "echo512.perSecond"), "");
            eraRow("loom-mcp to its era's raw loop, 512 in flight: modern / legacy",
                    ratio(modern, rawModern, "echo512.perSecond") / ratio(legacy, rawLegacy, "echo512.perSecond"), "");
        }
    }

    private void eraRow(String measure, double ratio, String target) {
        String met = "";
        if (target.startsWith(">= ")) {
            met = Double.isNaN(ratio) ? " (n/a)" : ratio >= 0.9 ? " (met)" : " (**missed**)";
        }
        out.printf("| %s | %s | %s%s |%n", measure, Bench.fmt("%.2fx", ratio), target, met);
    }

    private void errors() {
        List<String> lines = distinctErrors(rounds.stream().flatMap(List::stream).toList());
        if (!lines.isEmpty()) {
            out.println();
            out.println("First errors seen (distinct, over all rounds):");
            out.println();
            lines.forEach(l -> out.println("- " + l));
        }
    }

    /** One line per client and distinct error text. */
    static List<String> distinctErrors(List<Map<String, Object>> results) {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        for (Map<String, Object> m : results) {
            if (m.get("errorsShown") instanceof List<?> l) {
                for (Object e : l) {
                    counts.merge(m.get("client") + ": " + e, 1L, Long::sum);
                }
            }
        }
        return counts.entrySet().stream().map(e -> e.getKey() + (e.getValue() > 1 ? " (seen " + e.getValue()
                + " times among the first errors of each run)" : "")).collect(Collectors.toList());
    }

    private void targets() {
        out.println();
        out.println("### loom-mcp against the targets (ratios to the raw loop, same round; reported, never asserted)");
        out.println();
        out.println("| target | measured | met |");
        out.println("|---|---|---|");
        row("sequential calls/s >= 0.8x", ratio("loom", "seq.perSecond"), r -> r >= 0.8, "%.2fx");
        row("512 in flight (echo) calls/s >= 0.8x", ratio("loom", "echo512.perSecond"), r -> r >= 0.8, "%.2fx");
        row("client CPU per call <= 1.5x", ratio("loom", "cpuUsPerEcho"), r -> r <= 1.5, "%.2fx");
        row("ready <= 1.2x", ratio("loom", "readyColdMs"), r -> r <= 1.2, "%.2fx");
        row("failed calls = 0", total("loom", "failed") + total("loom", "failedInWarmup"), r -> r == 0, "%.0f");
        row("peak RSS <= raw + 30 MB", difference("loom", "peakRssMb"), r -> r <= 30, "%+.0f MB");
    }

    private void row(String target, double v, java.util.function.DoublePredicate ok, String pattern) {
        out.printf("| %s | %s | %s |%n", target, Bench.fmt(pattern, v),
                Double.isNaN(v) ? "n/a" : ok.test(v) ? "yes" : "**no**");
    }

    static void scale(List<String> clients, List<Map<String, Object>> results, PrintStream out) {
        out.println();
        out.println("## Scale run: " + Bench.SCALE_CALLS + " calls of sleep(" + Bench.SCALE_SLEEP_MS
                + ") released at once from as many virtual threads over one stdio client, client JVM "
                + Bench.SCALE_HEAP);
        out.println();
        out.println("| client | time ms (release to last answer) | most pending at the server at once | failed"
                + " | heap after GC, all in flight (pending at the server then) | heap after GC, idle before"
                + " | peak RSS MB |");
        out.println("|---|---|---|---|---|---|---|");
        for (Map<String, Object> m : results) {
            if (m.containsKey("crashed")) {
                out.printf("| %s | did not complete | | | | | |%n", m.get("client"));
                continue;
            }
            double atGc = Bench.num(m, "serverPendingAtGc");
            out.printf("| %s | %s | %s | %s | %s MB (%s) | %s MB | %s |%n", m.get("client"),
                    Bench.fmt("%.0f", Bench.num(m, "seconds") * 1000),
                    Bench.fmt("%,.0f", Bench.num(m, "serverMaxPending")),
                    Bench.fmt("%.0f", Bench.num(m, "failed")),
                    Bench.fmt("%.1f", Bench.num(m, "heapInFlightAfterGcMb")),
                    atGc < 0 ? "unknown: the stats call failed" : Bench.fmt("%,.0f", atGc),
                    Bench.fmt("%.1f", Bench.num(m, "heapIdleAfterGcMb")),
                    Bench.fmt("%.0f", Bench.num(m, "peakRssMb")));
        }
        List<String> errs = distinctErrors(results);
        if (!errs.isEmpty()) {
            out.println();
            errs.forEach(l -> out.println("- " + l));
        }
    }
}
