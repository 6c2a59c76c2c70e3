package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.BlobResourceContents;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.ResourceLink;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.UnknownContent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RenderTest {

    private final StringWriter text = new StringWriter();
    private final PrintWriter out = new PrintWriter(text);

    @Test
    void tableFitsTheWidthAndCutsTheLastColumn() {
        Render.table(out, List.of("NAME", "DESCRIPTION"), List.of(List.of("echo", "x".repeat(200)),
                List.of("long-name", "multi\nline   text")), 40);
        String[] lines = text.toString().split("\n");
        assertThat(lines[0]).isEqualTo("NAME       DESCRIPTION");
        assertThat(lines[1]).hasSize(40).startsWith("echo       xxx").endsWith("...");
        assertThat(lines[2]).isEqualTo("long-name  multi line text");
    }

    @Test
    void tableWithUnknownWidthCutsTheLastColumnToOneHundredCharacters() {
        Render.table(out, List.of("N", "D"), List.of(List.of("a", "y".repeat(300))), 0);
        String row = text.toString().split("\n")[1];
        assertThat(row.substring(3)).hasSize(Render.DEFAULT_LAST_COLUMN).endsWith("...");
    }

    @Test
    void toolResultPrintsEachBlock() {
        String png = Base64.getEncoder().encodeToString(new byte[1234]);
        String wav = Base64.getEncoder().encodeToString(new byte[10]);
        Map<String, Object> hologram = new java.util.LinkedHashMap<>();
        hologram.put("type", "hologram");
        hologram.put("depth", 3);
        CallToolResult r = new CallToolResult(List.of(
                TextContent.of("hello"),
                ImageContent.of(png, "image/png"),
                AudioContent.of(wav, "audio/wav"),
                new ResourceLink("demo://r/1", "one", null, "the first", "text/plain", 12L, null, null, null),
                EmbeddedResource.of(TextResourceContents.of("demo://t", "text/plain", "abc")),
                EmbeddedResource.of(BlobResourceContents.of("demo://b", "application/octet-stream",
                        Base64.getEncoder().encodeToString(new byte[3]))),
                UnknownContent.of(hologram)),
                Map.of("temperature", 21), null, null);
        Render.toolResult(out, r);
        assertThat(text.toString()).isEqualTo(String.join("\n",
                "hello",
                "[image: image/png, 1,234 bytes]",
                "[audio: audio/wav, 10 bytes]",
                "[resource link: demo://r/1 (one, text/plain, 12 bytes): the first]",
                "[embedded resource: demo://t (text/plain), 3 characters of text]",
                "[embedded resource: demo://b (application/octet-stream), 3 bytes]",
                "[content of unknown type 'hologram': {\"type\":\"hologram\",\"depth\":3}]",
                "structuredContent:",
                "{",
                "  \"temperature\" : 21",
                "}",
                ""));
    }

    @Test
    void invalidBase64IsSaidSo() {
        assertThat(Render.decodedSize("%%%")).contains("not valid base64");
        assertThat(Render.decodedSize(null)).isEqualTo("no data");
        assertThat(Render.decodedSize("")).isEqualTo("0 bytes");
    }

    @Test
    void progressLines() {
        assertThat(ProgressBar.format(new ProgressNotification("t", 2, 4.0, "step 2")))
                .isEqualTo("[###############---------------]  50% (2/4)  step 2");
        assertThat(ProgressBar.format(new ProgressNotification("t", 7, null, null))).isEqualTo("progress 7");
        assertThat(ProgressBar.format(new ProgressNotification("t", 9, 4.0, null))).startsWith("[" + "#".repeat(30)
                + "] 100%");
    }

    @Test
    void aDisabledProgressBarDrawsNothing() {
        ProgressBar bar = new ProgressBar(out, false, 80);
        bar.onProgress(new ProgressNotification("t", 1, 2.0, null));
        bar.finish();
        assertThat(text.toString()).isEmpty();
    }

    @Test
    void anEnabledProgressBarRedrawsInPlaceAndErasesItself() {
        ProgressBar bar = new ProgressBar(out, true, 80);
        bar.onProgress(new ProgressNotification("t", 1, 2.0, "long message"));
        bar.onProgress(new ProgressNotification("t", 2, 2.0, null));
        bar.finish();
        String s = text.toString();
        assertThat(s).startsWith("\r[").contains("50%").contains("100%").endsWith("\r");
        assertThat(s).doesNotContain("\n");
    }

    /** A writer that fails the way a broken terminal or a bug would: with an {@link Error}. */
    private static final class FailingWriter extends java.io.Writer {
        @Override
        public void write(char[] buf, int off, int len) {
            throw new AssertionError("boom");
        }

        @Override
        public void flush() {
            throw new AssertionError("boom");
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aProgressBarThatCannotDrawNeverThrowsIntoTheClientsThread() {
        ProgressBar bar = new ProgressBar(new PrintWriter(new FailingWriter()), true, 80);
        bar.onProgress(new ProgressNotification("t", 1, 2.0, "x"));
        bar.onProgress(new ProgressNotification("t", 2, 2.0, "x"));
        bar.finish();
    }

    @Test
    void theStderrCollectorKeepsLinesWhenItsEchoFailsAndNeverThrows() {
        StderrTail tail = new StderrTail(new PrintWriter(new FailingWriter()));
        tail.accept("first");
        tail.accept("second");
        assertThat(tail.tail()).isEqualTo("first\nsecond");
    }

    @Test
    void longStringsAreSummarisedAtAnyDepthAndShortOnesKept() {
        boolean[] cut = new boolean[1];
        Map<String, Object> value = new java.util.LinkedHashMap<>();
        value.put("short", "abc");
        value.put("n", 3);
        value.put("nested", Map.of("list", List.of("y".repeat(201), "ok")));
        value.put("exact", "z".repeat(200));
        value.put("none", null);
        Object summary = Render.summarizeStrings(value, cut);
        assertThat(cut[0]).isTrue();
        assertThat(Json.write(summary)).isEqualTo("{\"short\":\"abc\",\"n\":3,\"nested\":{\"list\":[\""
                + "y".repeat(60) + "... [201 characters]\",\"ok\"]},\"exact\":\"" + "z".repeat(200)
                + "\",\"none\":null}");
        boolean[] untouched = new boolean[1];
        Render.summarizeStrings(Map.of("a", "b"), untouched);
        assertThat(untouched[0]).isFalse();
        // a surrogate pair is never split
        String emoji = "x".repeat(59) + "\uD83D\uDE00" + "x".repeat(200);
        assertThat((String) Render.summarizeStrings(emoji, new boolean[1])).startsWith("x".repeat(59) + "...");
    }

    @Test
    void tablesMeasureCjkByDisplayWidthAndCutLongNames() {
        StringWriter w = new StringWriter();
        Render.table(new PrintWriter(w), List.of("NAME", "DESCRIPTION"), List.of(
                List.of("検索", "search"), List.of("n".repeat(100), "long"), List.of("ab", "日本語".repeat(20))), 50);
        List<String> lines = w.toString().lines().toList();
        assertThat(lines.get(0)).isEqualTo("NAME" + " ".repeat(24) + "  DESCRIPTION");
        assertThat(lines.get(1)).isEqualTo("検索" + " ".repeat(24) + "  search");
        assertThat(lines.get(2)).isEqualTo("n".repeat(25) + "...  long");
        assertThat(lines.get(3)).isEqualTo("ab" + " ".repeat(26) + "  日本語日本語日本...");
        for (String line : lines) {
            assertThat(TerminalText.displayWidth(line)).as(line).isLessThanOrEqualTo(50);
        }
        assertThat(Render.columnLimit(0, 3)).isEqualTo(Render.DEFAULT_COLUMN);
        assertThat(Render.columnLimit(80, 3)).isEqualTo(28);
        assertThat(Render.columnLimit(30, 4)).isEqualTo(20);
    }
}
