package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The harness's {@code --check} mode end to end (what CI runs): every client in its own JVM completes a tiny round
 * with zero failed calls. Asserts correctness only, never a speed.
 */
@ExtendWith(LeakCheck.class)
class CheckModeTest {

    @Test
    void everyClientCompletesWithZeroFailures() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
            status = Bench.execute(new String[] {"--check"}, out);
        }
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("check: every client completed, zero failed calls");
        assertThat(status).as(text).isZero();
        for (String client : Clients.CHECK) { // one of each kind on each transport, the TypeScript SDK's too
            assertThat(text).contains("| " + Clients.label(client) + " |");
        }
        assertThat(Clients.CHECK).contains("ts", "ts-http", "ts-http-sse", "sdk-http", "sdk-http-sse");
        List<String> targets = MatrixReport.targetRows(text);
        assertThat(targets).anyMatch(row -> row.startsWith("| HTTP, JSON answers: sequential calls/s |"))
                .anyMatch(row -> row.startsWith("| HTTP, SSE answers: client CPU per call |"))
                .anyMatch(row -> row.startsWith("| stdio: cold sequential calls/s |"))
                .anyMatch(row -> row.startsWith("| zero failed calls everywhere | all | 0 | 0 | met |"))
                .anyMatch(row -> row.startsWith("| stdio: loom-mcp ahead of sdk-async, sdk-sync, ts on every"));
    }
}
