package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The before/after report on synthetic figures: the change is the per-round after / before, the noise the spread over
 * rounds (the raw loop's included), and the verdict says slower only beyond the noise; an added thread per call is
 * called out.
 */
class CompareReportTest {

    /** One run: sequential rate {@code rate} (p50 from it), CPU per call {@code cpu}, {@code threads} started per call. */
    private static Map<String, Object> run(String client, double rate, double cpu, double threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client", client);
        m.put("readyColdMs", 300.0);
        m.put("readyWarmMs", 50.0);
        m.put("cold", Map.of("perSecond", 2_000.0, "cpuUsPerCall", 500.0));
        m.put("seq", Map.of("perSecond", rate, "p50us", 1e6 / rate, "p99us", 200.0, "calls", 1000L,
                "cpuUsPerCall", cpu));
        m.put("echo64", Map.of("perSecond", 40_000.0, "calls", 1000L));
        m.put("echo512", Map.of("perSecond", 80_000.0, "calls", 1000L));
        m.put("cpuUsPerEcho", cpu);
        m.put("allocBytesPerEcho", 5000.0);
        m.put("threads", Map.of("calls", 1000, "virtualPerCall", threads, "platformPerCall", 0.0,
                "platformMxPerCall", 0.0, "platformParksPerCall", 1.0,
                "started", threads > 0 ? Map.of("virtual mcp-http-#", (long) (threads * 1000)) : Map.of()));
        m.put("failed", 0L);
        m.put("failedInWarmup", 0L);
        return m;
    }

    @Test
    void aChangeBeyondTheNoiseGetsAVerdictAndOneWithinItDoesNot() {
        // 4 rounds with ±2 % wobble; loom-legacy's after is 30 % slower and costs 30 % more CPU, loom-modern's
        // after is 1.5 % slower (within the 3 % noise) and loom-http-legacy's starts one more thread per call
        double[] wobble = {1.00, 1.02, 0.99, 1.01};
        List<List<Map<String, Object>>> before = new ArrayList<>();
        List<List<Map<String, Object>>> after = new ArrayList<>();
        for (double w : wobble) {
            List<Map<String, Object>> b = new ArrayList<>();
            List<Map<String, Object>> a = new ArrayList<>();
            for (String c : Clients.COMPARE) {
                if (Clients.isRaw(c)) {
                    Map<String, Object> m = run(c, 20_000 * w, 10, 0);
                    b.add(m);
                    a.add(m);
                    continue;
                }
                double threads = c.contains("http") ? 5 : 0;
                b.add(run(c, 15_000 * w, 12 * w, threads));
                double slower = c.equals("loom-legacy") ? 0.7 : c.equals("loom-modern") ? 0.985 : 1.0;
                a.add(run(c, 15_000 * w * slower, 12 * w / slower, c.equals("loom-http-legacy") ? 6 : threads));
            }
            before.add(b);
            after.add(a);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new CompareReport(Clients.COMPARE, new Report(Clients.COMPARE, before, out),
                    new Report(Clients.COMPARE, after, out), "main", "tree", Profile.COMPARE, out).print();
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        String legacy = section(text, "(`loom-legacy`)");
        assertThat(legacy).contains("| sequential calls/s (warm) | 15,075 (0.75x) | 10,553 (0.53x) | 0.70x | ±3% |"
                + " **slower by more than noise** |");
        assertThat(legacy).contains("| client CPU per call µs (sequential, 64 and 512 in flight) | 12.1 (1.21x) |"
                + " 17.2 (1.72x) | 1.43x | ±3% | **slower by more than noise** |");
        assertThat(legacy).contains("| latency per sequential call, p50 µs |").contains("| heap allocation per call,"
                + " bytes | 5,000 (1.00x) | 5,000 (1.00x) | 1.00x | ±0% | within noise |");
        String modern = section(text, "(`loom-modern`)");
        assertThat(modern).contains("| sequential calls/s (warm) |").contains("| 0.99x | ±3% | within noise |");
        assertThat(modern).doesNotContain("slower by more than noise");
        assertThat(text).contains("| loom-http-legacy | 5.00 → 6.00 | 0.00 → 0.00 (0.00 → 0.00) | 1.00 → 1.00 |"
                + " **adds a thread per call** | before: `virtual mcp-http-#` 5.000; after: `virtual mcp-http-#`"
                + " 6.000 |");
        assertThat(text).contains("| loom-http-modern | 5.00 → 5.00 |").contains("| same |");
        assertThat(text).containsPattern("\\| loom-legacy \\| \\*\\*latency per sequential call, p50 µs;"
                + " sequential calls/s \\(warm\\); client CPU per call µs[^|]*\\*\\* \\| none \\| 0.00 → 0.00 \\| 0 / 0"
                + " \\|");
        assertThat(text).contains("| raw loop (Java + Jackson 3, no SDK) | 50 (±3%) | 20,100 (±3%) |");
    }

    @Test
    void oneRoundHasNoNoiseEstimateAndNoVerdict() {
        CompareReport.Figure seq = CompareReport.FIGURES.get(2);
        assertThat(CompareReport.verdict(seq, 0.5, Double.NaN)).startsWith("n/a");
        assertThat(CompareReport.verdict(seq, 1.04, 0.05)).isEqualTo(CompareReport.WITHIN);
        assertThat(CompareReport.verdict(seq, 1.10, 0.05)).isEqualTo("faster");
        assertThat(Stats.spread(new double[] {10})).isNaN();
        assertThat(Stats.spread(new double[] {9, 10, 11, Double.NaN})).isEqualTo(0.2);
    }

    private static String section(String text, String heading) {
        int from = text.indexOf(heading);
        assertThat(from).as(heading).isPositive();
        int to = text.indexOf("\n### ", from);
        return text.substring(from, to < 0 ? text.length() : to);
    }
}
