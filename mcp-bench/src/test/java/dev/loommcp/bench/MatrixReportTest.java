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

/** The matrix report on synthetic figures: one grouped table, then the targets table with met and missed rows. */
class MatrixReportTest {

    private static Map<String, Object> run(String client, double rate, double cpu) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client", client);
        m.put("readyColdMs", 300.0);
        m.put("cold", Map.of("perSecond", rate / 2, "cpuUsPerCall", cpu * 2));
        m.put("seq", Map.of("perSecond", rate, "p50us", 80.0, "p99us", 200.0, "calls", 1000L, "cpuUsPerCall", cpu));
        m.put("echo64", Map.of("perSecond", rate * 8, "calls", 1000L));
        m.put("echo512", Map.of("perSecond", rate * 10, "calls", 1000L, "cpuUsPerCall", cpu));
        m.put("cpuUsPerEcho", cpu);
        if (!Clients.isNode(client)) {
            m.put("allocBytesPerEcho", 5000.0);
        }
        m.put("peakRssMb", 300.0);
        m.put("failed", 0L);
        m.put("failedInWarmup", 0L);
        return m;
    }

    @Test
    void printsOneTableByTransportThenTheTargets() {
        List<List<Map<String, Object>>> rounds = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            List<Map<String, Object>> round = new ArrayList<>();
            for (String c : Clients.MATRIX) {
                boolean loom = c.startsWith("loom");
                boolean raw = c.startsWith("raw");
                round.add(run(c, raw ? 10_000 : loom ? 9_000 : 5_000, raw ? 10 : loom ? 11 : 20));
            }
            rounds.add(round);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new MatrixReport(new Report(Clients.MATRIX, rounds, out)).print();
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("| **stdio** |", "| **HTTP, JSON answers** |", "| **HTTP, SSE answers** |");
        for (String c : Clients.MATRIX) {
            assertThat(text).contains("| " + Clients.label(c) + " |");
        }
        List<String> targets = MatrixReport.targetRows(text);
        assertThat(targets).contains(
                "| HTTP, JSON answers: sequential calls/s | loom-http-legacy | 0.90x | >= 0.8x | met |",
                "| HTTP, SSE answers: echo, 512 in flight | loom-http-modern-sse | 0.90x | >= 0.9x | met |",
                "| HTTP, JSON answers: client CPU per call | loom-http-legacy | 1.10x | <= 1.3x | met |",
                "| stdio: cold sequential calls/s | loom-legacy | 0.90x | >= 0.7x | met |",
                "| zero failed calls everywhere | all | 0 | 0 | met |",
                "| stdio, modern era / legacy era: sequential calls/s (issue 10) | loom-modern / loom-legacy | 1.00x"
                        + " | >= 0.9x | met |");
        // loom-mcp is ahead of every peer on calls/s and CPU per call in these figures (ready time and RSS, equal
        // here, are not compared)
        assertThat(targets).anyMatch(l -> l.startsWith("| stdio: loom-mcp ahead of sdk-async, sdk-sync, ts")
                && l.contains("| loom-legacy | ahead on 15 of 15 |") && l.endsWith("| met |"));
        assertThat(text).contains("allocation per call").contains("| n/a |");
    }
}
