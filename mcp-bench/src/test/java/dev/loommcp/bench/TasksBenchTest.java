package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code --tasks} end to end on a small scale (the same path as the 1,000-task run): every task completes over stdio
 * and HTTP, and the table names what it measured. Asserts correctness only, never a speed.
 */
@ExtendWith(LeakCheck.class)
class TasksBenchTest {

    @Test
    void theCountingTransportPassesTheWrappedTransportsInfoAndSessionThrough() {
        dev.loommcp.spi.McpTransport stdio = dev.loommcp.transport.stdio.StdioTransport.newBuilder(List.of("node"))
                .build();
        TasksBench.CountingTransport counting = new TasksBench.CountingTransport(stdio);
        assertThat(counting.info()).isEqualTo(dev.loommcp.spi.TransportInfo.pipe());
        assertThat(counting.sessionId()).isEqualTo(stdio.sessionId());
        counting.close();
    }


    @Test
    void aSmallRunCompletesEveryTaskOverBothTransports() throws Exception {
        Path fixture = Path.of("..", "test-servers", "tasks-fixture.mjs").toAbsolutePath().normalize();
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8)) {
            status = Bench.execute(new String[] {"--tasks", "--count", "20", "--seconds", "0.3", "--poll-ms", "100",
                "--fixture", fixture.toString()}, out);
        }
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(status).as(text).isZero();
        assertThat(text).contains("| stdio | 20 | 20 | 0 |", "| http | 20 | 20 | 0 |", "tasks/get per task");
    }

    @Test
    void theEndpointIsReadFromAUrlOrAPort() throws IOException {
        assertThat(TasksBench.endpoint("http://127.0.0.1:4100/mcp")).isEqualTo(URI.create("http://127.0.0.1:4100/mcp"));
        assertThat(TasksBench.endpoint("LISTENING 4100")).isEqualTo(URI.create("http://127.0.0.1:4100/mcp"));
        assertThatThrownBy(() -> TasksBench.endpoint(null)).isInstanceOf(IOException.class)
                .hasMessageContaining("exited");
    }

    @Test
    void aBadArgumentIsNamed() {
        assertThatThrownBy(() -> TasksBench.run(List.of("--nope"), System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--nope");
        assertThatThrownBy(() -> TasksBench.run(List.of("--fixture", "/no/such/file.mjs"), System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/no/such/file.mjs");
    }
}
