package dev.loommcp.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The before/after comparison's report ({@link Compare}): a summary, one table per loom-mcp client of the matrix
 * (each figure before and after with its ratio to the raw loop of the same round, the change, the noise of the run
 * and a verdict), the raw loops' own spread, and the thread check.
 *
 * <p>The change of a figure is the median over rounds of after / before within the round (the two runs were back to
 * back). The noise is the largest spread over rounds, (max - min) / median, of the client on either side and of the
 * raw loop it is compared with (whose code does not change: the machine's noise in this run). The verdict: "within
 * noise" when the change is within 1 ± noise, otherwise faster or slower (larger or smaller for allocation); with one
 * round there is no noise estimate and no verdict.
 */
final class CompareReport {

    /**
     * One figure of a client's table.
     *
     * @param label          its name in the table
     * @param path           where it is in a run's result
     * @param higherIsBetter whether a higher value is better (calls/s) or worse (µs, ms, bytes)
     * @param pattern        how its values print
     * @param allocation     whether the verdict says larger/smaller instead of slower/faster
     */
    record Figure(String label, String path, boolean higherIsBetter, String pattern, boolean allocation) {
    }

    /** The figures of each client's table, in order. */
    static final List<Figure> FIGURES = List.of(
            new Figure("latency per sequential call, p50 µs", "seq.p50us", false, "%.0f", false),
            new Figure("latency per sequential call, p99 µs", "seq.p99us", false, "%.0f", false),
            new Figure("sequential calls/s (warm)", "seq.perSecond", true, "%,.0f", false),
            new Figure("echo, 64 in flight /s", "echo64.perSecond", true, "%,.0f", false),
            new Figure("echo, 512 in flight /s", "echo512.perSecond", true, "%,.0f", false),
            new Figure("client CPU per call µs (sequential, 64 and 512 in flight)", "cpuUsPerEcho", false, "%.1f",
                    false),
            new Figure("client CPU per sequential call µs", "seq.cpuUsPerCall", false, "%.1f", false),
            new Figure("cold calls/s (first calls in a fresh JVM)", "cold.perSecond", true, "%,.0f", false),
            new Figure("client CPU per cold call µs", "cold.cpuUsPerCall", false, "%.0f", false),
            new Figure("ready ms, cold (fresh JVM, server start included)", "readyColdMs", false, "%.0f", false),
            new Figure("ready ms, warm (a new client in the same JVM)", "readyWarmMs", false, "%.0f", false),
            new Figure("heap allocation per call, bytes", "allocBytesPerEcho", false, "%,.0f", true));

    /** The verdict words. */
    static final String WITHIN = "within noise";

    private final List<String> clients;
    private final Report before;
    private final Report after;
    private final String beforeLabel;
    private final String afterLabel;
    private final Profile profile;
    private final PrintStream out;

    CompareReport(List<String> clients, Report before, Report after, String beforeLabel, String afterLabel,
                  Profile profile, PrintStream out) {
        this.clients = clients;
        this.before = before;
        this.after = after;
        this.beforeLabel = beforeLabel;
        this.afterLabel = afterLabel;
        this.profile = profile;
        this.out = out;
    }

    void print() {
        List<String> loom = clients.stream().filter(c -> !Clients.isRaw(c)).toList();
        summary(loom);
        for (String c : loom) {
            clientTable(c);
        }
        rawTable();
        threads(loom);
        out.println();
        out.println("Per round, before | after (seq calls/s; echo 512 in flight /s; client CPU µs per call):");
        out.println();
        for (String c : loom) {
            List<String> each = new ArrayList<>();
            for (int r = 0; r < before.rounds().size(); r++) {
                each.add(roundFigures(before, r, c) + " | " + roundFigures(after, r, c));
            }
            out.printf("- %s: %s%n", c, String.join(" || ", each));
        }
        List<String> errors = Report.distinctErrors(after.rounds().stream().flatMap(List::stream).toList());
        List<String> errorsBefore = Report.distinctErrors(before.rounds().stream().flatMap(List::stream)
                .filter(m -> !Clients.isRaw(String.valueOf(m.get("client")))).toList());
        if (!errors.isEmpty() || !errorsBefore.isEmpty()) {
            out.println();
            out.println("First errors seen (distinct, over all rounds):");
            out.println();
            errorsBefore.forEach(l -> out.println("- before, " + l));
            errors.forEach(l -> out.println("- after, " + l));
        }
    }

    private static String roundFigures(Report side, int round, String c) {
        Map<String, Object> m = side.rounds().get(round).stream().filter(x -> c.equals(x.get("client")))
                .findFirst().orElse(Map.of());
        return Bench.fmt("%,.0f", Bench.num(m, "seq.perSecond")) + "; "
                + Bench.fmt("%,.0f", Bench.num(m, "echo512.perSecond")) + "; "
                + Bench.fmt("%.1f", Bench.num(m, "cpuUsPerEcho"));
    }

    private void summary(List<String> loom) {
        out.println("## Summary: " + afterLabel + " (after) against " + beforeLabel + " (before), "
                + before.rounds().size() + " round(s)");
        out.println();
        out.println("| client | slower (or larger) by more than noise | faster (or smaller) by more than noise"
                + " | threads started per sequential call, before → after | failed calls, before / after |");
        out.println("|---|---|---|---|---|");
        for (String c : loom) {
            List<String> worse = new ArrayList<>();
            List<String> better = new ArrayList<>();
            for (Figure f : FIGURES) {
                String v = verdict(f, change(c, f.path()), noise(c, f.path()));
                if (v.startsWith("**")) {
                    worse.add(f.label());
                } else if (!v.equals(WITHIN) && !v.startsWith("n/a")) {
                    better.add(f.label());
                }
            }
            out.printf("| %s | %s | %s | %s → %s | %d / %d |%n", c,
                    worse.isEmpty() ? "none" : "**" + String.join("; ", worse) + "**",
                    better.isEmpty() ? "none" : String.join("; ", better),
                    Bench.fmt("%.2f", threadsPerCall(before, c)), Bench.fmt("%.2f", threadsPerCall(after, c)),
                    failed(before, c), failed(after, c));
        }
        out.println();
        out.println("change = median over rounds of after / before within the round (the two runs were back to"
                + " back); noise = the largest spread over rounds, (max - min) / median, of the client on either side and of"
                + " the raw loop of its transport (no code under test changes there: the machine's noise); a change"
                + " beyond 1 ± noise gets a verdict. In parentheses after a value: the median of its per-round ratio"
                + " to the raw loop of the same transport in the same round (the matrix's reference). Compare"
                + " ratios and verdicts, not figures across runs: the machine's load moves the figures.");
    }

    private void clientTable(String c) {
        out.println();
        out.println("### " + Clients.label(c) + " (`" + c + "`)");
        out.println();
        out.println("| figure | before | after | after / before | noise | verdict |");
        out.println("|---|---|---|---|---|---|");
        for (Figure f : FIGURES) {
            double change = change(c, f.path());
            double noise = noise(c, f.path());
            out.printf("| %s | %s | %s | %s | %s | %s |%n", f.label(), withRatio(before, c, f), withRatio(after, c, f),
                    Bench.fmt("%.2fx", change), Double.isNaN(noise) ? "n/a" : Bench.fmt("±%.0f%%", noise * 100),
                    verdict(f, change, noise));
        }
        out.printf("| threads started per sequential call (virtual + platform) | %s | %s | | | %s |%n",
                Bench.fmt("%.2f", threadsPerCall(before, c)), Bench.fmt("%.2f", threadsPerCall(after, c)),
                threadVerdict(threadsPerCall(before, c), threadsPerCall(after, c)));
        out.printf("| failed calls (all rounds) | %d | %d | | | %s |%n", failed(before, c), failed(after, c),
                failed(after, c) > failed(before, c) ? "**more failures**" : "");
    }

    private static String withRatio(Report side, String c, Figure f) {
        double v = side.median(c, f.path());
        String s = Bench.fmt(f.pattern(), v);
        if (!Double.isNaN(v) && side.compared(c)) {
            s += " (" + Bench.fmt("%.2fx", side.ratio(c, f.path())) + ")";
        }
        return s;
    }

    private void rawTable() {
        out.println();
        out.println("### The raw loops: the same-run reference (one run per round, shared by both sides)");
        out.println();
        out.println("Their spread over rounds is the machine's own noise in this run: no code under test changes"
                + " between their rounds.");
        out.println();
        out.println("| client | seq p50 µs (spread) | seq calls/s (spread) | echo, 512 in flight /s (spread)"
                + " | client CPU per call µs (spread) | cold calls/s (spread) |");
        out.println("|---|---|---|---|---|---|");
        for (String c : clients.stream().filter(Clients::isRaw).toList()) {
            out.printf("| %s | %s | %s | %s | %s | %s |%n", Clients.label(c), spreadCell(c, "seq.p50us", "%.0f"),
                    spreadCell(c, "seq.perSecond", "%,.0f"), spreadCell(c, "echo512.perSecond", "%,.0f"),
                    spreadCell(c, "cpuUsPerEcho", "%.1f"), spreadCell(c, "cold.perSecond", "%,.0f"));
        }
    }

    private String spreadCell(String c, String path, String pattern) {
        double s = spread(after, c, path);
        return Bench.fmt(pattern, after.median(c, path)) + (Double.isNaN(s) ? "" : Bench.fmt(" (±%.0f%%)", s * 100));
    }

    private void threads(List<String> loom) {
        out.println();
        out.println("## Threads per sequential call");
        out.println();
        out.printf("%,d sequential echo calls in the client JVM after the timed phases, under a JFR recording of"
                + " jdk.VirtualThreadStart, jdk.ThreadStart and jdk.ThreadPark (threshold 0); median over rounds."
                + " A new thread per call shows as +1.00 started. Platform parks (carriers included; a virtual"
                + " thread's own park is not a JFR event) indicate hand-offs: a hand-off to a thread on an idle"
                + " carrier wakes the carrier, which parks again.%n%n", profile.threadCalls());
        out.println("| client | virtual started, before → after | platform started, before → after (MXBean)"
                + " | platform parks, before → after | verdict | threads started by the calls, per call (names with digits as"
                + " #) |");
        out.println("|---|---|---|---|---|---|");
        for (String c : loom) {
            out.printf("| %s | %s → %s | %s → %s (%s → %s) | %s → %s | %s | %s |%n", c,
                    Bench.fmt("%.2f", before.median(c, "threads.virtualPerCall")),
                    Bench.fmt("%.2f", after.median(c, "threads.virtualPerCall")),
                    Bench.fmt("%.2f", before.median(c, "threads.platformPerCall")),
                    Bench.fmt("%.2f", after.median(c, "threads.platformPerCall")),
                    Bench.fmt("%.2f", before.median(c, "threads.platformMxPerCall")),
                    Bench.fmt("%.2f", after.median(c, "threads.platformMxPerCall")),
                    Bench.fmt("%.2f", before.median(c, "threads.platformParksPerCall")),
                    Bench.fmt("%.2f", after.median(c, "threads.platformParksPerCall")),
                    threadVerdict(threadsPerCall(before, c), threadsPerCall(after, c)),
                    "before: " + startedNames(before, c) + "; after: " + startedNames(after, c));
        }
    }

    /** The threads the check saw started, by folded name, per call, over all rounds of one side; most first. */
    private String startedNames(Report side, String c) {
        Map<String, Double> perCall = new TreeMap<>();
        double calls = 0;
        for (List<Map<String, Object>> round : side.rounds()) {
            for (Map<String, Object> m : round) {
                if (c.equals(m.get("client")) && m.get("threads") instanceof Map<?, ?> t
                        && t.get("started") instanceof Map<?, ?> names && t.get("calls") instanceof Number n) {
                    calls += n.doubleValue();
                    names.forEach((k, v) -> perCall.merge(String.valueOf(k), ((Number) v).doubleValue(),
                            Double::sum));
                }
            }
        }
        if (perCall.isEmpty() || calls == 0) {
            return "none";
        }
        double total = calls;
        return perCall.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
                .limit(4).map(e -> "`" + e.getKey() + "` " + Bench.fmt("%.3f", e.getValue() / total))
                .collect(Collectors.joining(", "));
    }

    static String threadVerdict(double before, double after) {
        if (Double.isNaN(before) || Double.isNaN(after)) {
            return "n/a";
        }
        double d = after - before;
        // a thread per call is 1.00: half of that is far above what a pool's occasional start adds
        return d >= 0.5 ? "**adds a thread per call**" : d <= -0.5 ? "one fewer thread per call" : "same";
    }

    private static double threadsPerCall(Report side, String c) {
        return side.median(c, "threads.virtualPerCall") + side.median(c, "threads.platformPerCall");
    }

    private static long failed(Report side, String c) {
        long crashed = side.rounds().stream().flatMap(List::stream)
                .filter(m -> c.equals(m.get("client")) && m.containsKey("crashed")).count();
        return side.total(c, "failed") + side.total(c, "failedInWarmup") + crashed;
    }

    /** The median over rounds of after / before of the same round. */
    double change(String c, String path) {
        int n = Math.min(before.rounds().size(), after.rounds().size());
        double[] v = new double[n];
        for (int r = 0; r < n; r++) {
            v[r] = value(after, r, c, path) / value(before, r, c, path);
        }
        return Stats.median(v);
    }

    /**
     * The noise of a figure: the largest spread over rounds among the client on each side and the raw loop it is
     * compared with (the machine's own noise for that transport in this run); NaN with fewer than two rounds.
     */
    double noise(String c, String path) {
        double n = Math.max(spread(before, c, path), spread(after, c, path));
        String reference = Clients.reference(c);
        if (clients.contains(reference)) {
            n = Math.max(n, spread(after, reference, path));
        }
        return n;
    }

    /** (max - min) / median over the rounds of one side; NaN with fewer than two values. */
    static double spread(Report side, String c, String path) {
        double[] v = new double[side.rounds().size()];
        for (int r = 0; r < v.length; r++) {
            v[r] = value(side, r, c, path);
        }
        return Stats.spread(v);
    }

    private static double value(Report side, int round, String c, String path) {
        return side.rounds().get(round).stream().filter(m -> c.equals(m.get("client"))).findFirst()
                .map(m -> Bench.num(m, path)).orElse(Double.NaN);
    }

    /** The verdict on a change of a figure against the noise. */
    static String verdict(Figure f, double change, double noise) {
        if (Double.isNaN(change)) {
            return "n/a";
        }
        if (Double.isNaN(noise)) {
            return "n/a (one round: no noise estimate)";
        }
        boolean up = change > 1 + noise;
        boolean down = change < 1 - noise;
        if (!up && !down) {
            return WITHIN;
        }
        boolean better = f.higherIsBetter() == up;
        if (f.allocation()) {
            return better ? "smaller" : "**larger by more than noise**";
        }
        return better ? "faster" : "**slower by more than noise**";
    }
}
