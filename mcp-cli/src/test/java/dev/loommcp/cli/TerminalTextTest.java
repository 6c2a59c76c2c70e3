package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class TerminalTextTest {

    @Test
    void controlCharactersBecomeVisibleEscapes() {
        assertThat(TerminalText.escape("a\u001b[31mb")).isEqualTo("a\\x1b[31mb");
        assertThat(TerminalText.escape("nul\0 bel\u0007 del\u007f csi\u009b nel\u0085"))
                .isEqualTo("nul\\x00 bel\\x07 del\\x7f csi\\x9b nel\\x85");
        assertThat(TerminalText.escape("line\nnext\ttab")).isEqualTo("line\nnext\ttab");
        assertThat(TerminalText.escape("crlf\r\nlone\rcr\r")).isEqualTo("crlf\nlone\\x0dcr\\x0d");
        assertThat(TerminalText.escape("é ü 日本 \u00a0")).isEqualTo("é ü 日本 \u00a0");
        // bidirectional formatting and line separators: "\u202egnp.exe" would show as "exe.png"
        assertThat(TerminalText.escape("\u202egnp.exe \u2066x\u2069 \u200f \u061c a\u2028b\u2029"))
                .isEqualTo("\\u202egnp.exe \\u2066x\\u2069 \\u200f \\u061c a\\u2028b\\u2029");
        String plain = "nothing to do";
        assertThat(TerminalText.escape(plain)).isSameAs(plain);
        assertThat(TerminalText.escape(null)).isNull();
    }

    @Test
    void theWriterEscapesAcrossWritesAndKeepsCrLfPairsSplitBetweenThem() {
        StringWriter raw = new StringWriter();
        PrintWriter w = TerminalText.writer(raw);
        w.print("a\r");
        w.print("\nb\r");
        w.print("c\u001b");
        w.println();
        w.print("end\r");
        w.flush();
        assertThat(raw.toString()).isEqualTo("a\nb\\x0dc\\x1b" + System.lineSeparator() + "end\\x0d");
    }

    @Test
    void longMessagesAreCutSayingHowMuchWasLeftOut() {
        assertThat(TerminalText.cap("short")).isEqualTo("short");
        assertThat(TerminalText.cap("x".repeat(2000))).hasSize(2000);
        assertThat(TerminalText.cap("x".repeat(2001))).isEqualTo("x".repeat(2000) + "... (1 more characters)");
        assertThat(TerminalText.cap("y".repeat(12_345), 10)).isEqualTo("yyyyyyyyyy... (12,335 more characters)");
        // never splits a surrogate pair
        assertThat(TerminalText.cap("abc\uD83D\uDE00def", 4)).isEqualTo("abc... (5 more characters)");
        assertThat(TerminalText.cap(null)).isNull();
    }

    @Test
    void jsonTextKeepsItsValueWithDelAndC1Escaped() {
        String json = Json.writePretty(java.util.Map.of("t", "a\u001bb\u007fc\u009bd é"));
        assertThat(json).doesNotContain("\u001b").contains("\u007f");
        String safe = TerminalText.jsonSafe(json);
        assertThat(safe).doesNotContain("\u007f").doesNotContain("\u009b").contains("\\u007f").contains("\\u009b")
                .contains("é");
        assertThat(Json.read(safe)).isEqualTo(Json.read(json));
        String bidi = Json.writePretty(java.util.Map.of("name", "\u202egnp.exe"));
        assertThat(TerminalText.jsonSafe(bidi)).doesNotContain("\u202e").contains("\\u202egnp.exe");
        assertThat(Json.read(TerminalText.jsonSafe(bidi))).isEqualTo(Json.read(bidi));
    }

    @Test
    void logRecordsAreOneEscapedLine() {
        LogRecord r = new LogRecord(Level.WARNING, "skipped \"\u001b[2J\" from {0}");
        r.setParameters(new Object[] {"server"});
        assertThat(new Main.LogFormat().format(r))
                .isEqualTo("mcp: WARNING: skipped \"\\x1b[2J\" from server" + System.lineSeparator());
    }

    @Test
    void displayWidthCountsWideCharactersTwiceAndCombiningMarksNever() {
        assertThat(TerminalText.displayWidth("abc")).isEqualTo(3);
        assertThat(TerminalText.displayWidth("日本語")).isEqualTo(6);
        assertThat(TerminalText.displayWidth("한국어")).isEqualTo(6);
        assertThat(TerminalText.displayWidth("ＡＢ")).isEqualTo(4);
        assertThat(TerminalText.displayWidth("e\u0301")).isEqualTo(1);
        assertThat(TerminalText.displayWidth("\uD83D\uDE00")).isEqualTo(2);
        assertThat(TerminalText.displayWidth("\uD840\uDC0B")).isEqualTo(2);
        assertThat(TerminalText.displayWidth("a\u200Db")).isEqualTo(2);
        assertThat(TerminalText.displayWidth("")).isZero();
    }

    @Test
    void fitWidthNeverSplitsAWideCharacterOrASurrogatePair() {
        assertThat(TerminalText.fitWidth("日本語テキスト", 8)).isEqualTo("日本...");
        assertThat(TerminalText.fitWidth("日本語", 6)).isEqualTo("日本語");
        assertThat(TerminalText.fitWidth("ab\uD83D\uDE00cdef", 6)).isEqualTo("ab...");
        assertThat(TerminalText.fitWidth("abcdefgh", 6)).isEqualTo("abc...");
    }

    @Test
    void theLogFormatNeverThrowsIntoTheLoggingThread() {
        LogRecord record = new LogRecord(Level.WARNING, "bad {0}");
        record.setParameters(new Object[] {new Object() {
            @Override
            public String toString() {
                throw new AssertionError("boom");
            }
        }});
        assertThat(new Main.LogFormat().format(record)).isEqualTo("mcp: WARNING: (a log message that could not be "
                + "formatted: java.lang.AssertionError)" + System.lineSeparator());
    }
}
