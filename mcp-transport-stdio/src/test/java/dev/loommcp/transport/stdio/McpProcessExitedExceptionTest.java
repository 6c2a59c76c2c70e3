package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpTransportException;
import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Messages and accessors of {@link McpProcessExitedException}. */
@ExtendWith(LeakCheck.class)
class McpProcessExitedExceptionTest {

    @Test
    void decodesSignalsFromUnixExitCodes() {
        assertThat(McpProcessExitedException.signalOf(137, false)).hasValue(9);
        assertThat(McpProcessExitedException.signalOf(143, false)).hasValue(15);
        assertThat(McpProcessExitedException.signalOf(1, false)).isEmpty();
        assertThat(McpProcessExitedException.signalOf(128, false)).isEmpty();
        assertThat(McpProcessExitedException.signalOf(255, false)).isEmpty();
        assertThat(McpProcessExitedException.signalOf(137, true)).isEmpty();
    }

    @Test
    void messagesNameTheProgramTheCodeOrSignalAndTheTail() {
        McpProcessExitedException plain = new McpProcessExitedException("npx", OptionalInt.of(1), OptionalInt.empty(),
                "npm ERR! code E404\nnpm ERR! 404 Not Found");
        assertThat(plain).isInstanceOf(McpTransportException.class)
                .hasMessage("npx exited with code 1 (stderr tail: npm ERR! code E404 | npm ERR! 404 Not Found)");
        McpProcessExitedException killed = new McpProcessExitedException("node", OptionalInt.of(143),
                OptionalInt.of(15), "");
        assertThat(killed).hasMessage("node was killed by signal 15 (SIGTERM, exit code 143) (no stderr output)");
        assertThat(killed.exitCode()).hasValue(143);
        assertThat(killed.signal()).hasValue(15);
        assertThat(killed.command()).isEqualTo("node");
        assertThat(killed.stderrTail()).isEmpty();
    }

    @Test
    void longTailsAreCutInTheMessageButKeptInTheAccessor() {
        String tail = "x".repeat(5000) + "\nlast line";
        McpProcessExitedException e = new McpProcessExitedException("srv", OptionalInt.of(2), OptionalInt.empty(),
                tail);
        assertThat(e.getMessage()).hasSizeLessThan(600).endsWith("| last line)").contains("...");
        assertThat(e.stderrTail()).isEqualTo(tail);
    }

    @Test
    void isSerializable() throws Exception {
        McpProcessExitedException e = new McpProcessExitedException("srv", OptionalInt.of(137), OptionalInt.of(9),
                "bye");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(e);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            McpProcessExitedException back = (McpProcessExitedException) in.readObject();
            assertThat(back.exitCode()).hasValue(137);
            assertThat(back.signal()).hasValue(9);
            assertThat(back.stderrTail()).isEqualTo("bye");
            assertThat(back.getMessage()).isEqualTo(e.getMessage());
        }
    }
}
