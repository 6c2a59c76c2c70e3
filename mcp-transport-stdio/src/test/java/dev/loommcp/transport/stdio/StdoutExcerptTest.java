package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The excerpt of a skipped stdout line shows control characters as escapes, the way the CLI shows server text. */
class StdoutExcerptTest {

    private static String excerpt(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return StdoutReader.excerpt(b, 0, b.length);
    }

    @Test
    void controlCharactersAreEscapesNotQuestionMarks() {
        assertThat(excerpt("\u001b[31mred\u0007 del\u007f csi\u009b tab\t é"))
                .isEqualTo("\\x1b[31mred\\x07 del\\x7f csi\\x9b tab\\x09 é");
    }

    @Test
    void aLongLineIsCutAfterEightyCharacters() {
        assertThat(excerpt("x".repeat(200))).isEqualTo("x".repeat(80) + "...");
    }
}
