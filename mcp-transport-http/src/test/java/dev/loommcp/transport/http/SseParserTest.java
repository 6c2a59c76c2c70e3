package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The WHATWG event-stream rules, fed whole and byte by byte. */
class SseParserTest {

    record Ev(String type, String data, String id) {
    }

    static final class Collect {
        final List<Ev> events = new ArrayList<>();
        final SseParser parser;

        Collect(int max, String initialId) {
            parser = new SseParser(max, initialId, (t, d, id) -> events.add(new Ev(t, d, id)));
        }

        Collect() {
            this(1 << 20, null);
        }
    }

    /** Parses the text whole and one byte at a time; both must give the same events. */
    static List<Ev> parse(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Collect whole = new Collect();
        whole.parser.feed(bytes, 0, bytes.length);
        Collect split = new Collect();
        for (int i = 0; i < bytes.length; i++) {
            split.parser.feed(bytes, i, 1);
        }
        assertThat(split.events).isEqualTo(whole.events);
        return whole.events;
    }

    @Test
    void keepAlivesAreNotEventsButAPrimingIdIs() {
        Collect c = new Collect();
        byte[] pings = ": ping\n\n: ping\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(pings, 0, pings.length);
        assertThat(c.parser.dispatches()).as("comments only: no progress").isZero();
        byte[] priming = "id: e1\ndata:\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(priming, 0, priming.length);
        assertThat(c.parser.dispatches()).isEqualTo(1);
        assertThat(c.parser.lastEventId()).isEqualTo("e1");
    }

    @Test
    void anIdThatCannotBeSentBackAsAHeaderResetsTheLastEventIdToNone() {
        for (String bad : List.of("e\u4e2d", "e\u0001", "e\u007f", "caf\u00e9")) {
            List<Ev> events = parse("id: good\ndata: a\n\nid: " + bad + "\ndata: b\n\ndata: c\n\n");
            assertThat(events).as("id %s", bad.codePoints().boxed().toList()).containsExactly(
                    new Ev("message", "a", "good"), new Ev("message", "b", null), new Ev("message", "c", null));
        }
        // visible ASCII, SP and HTAB can be sent back (Latin-1 cannot: the JDK writes header lines as US-ASCII)
        assertThat(parse("id: cafe \tx\ndata: a\n\n")).containsExactly(new Ev("message", "a", "cafe \tx"));
        Collect c = new Collect();
        byte[] b = "id: \u4e2d\ndata:\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.parser.lastEventId()).isNull();
        assertThat(c.parser.unsendableIds()).isEqualTo(1);
    }

    @Test
    void aHugeRetryIsCappedAtTheLongestBackoff() {
        Collect c = new Collect();
        byte[] b = "retry: 999999999999\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.parser.retryMillis()).isEqualTo(HttpTransport.MAX_SERVER_RETRY.toMillis());
        byte[] longer = "retry: 99999999999999999999999\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(longer, 0, longer.length);
        assertThat(c.parser.retryMillis()).as("more digits than a long holds: capped too")
                .isEqualTo(HttpTransport.MAX_SERVER_RETRY.toMillis());
    }

    @Test
    void multiLineDataIsJoinedWithNewlines() {
        assertThat(parse("data: first\ndata:second\ndata:  third\n\n"))
                .containsExactly(new Ev("message", "first\nsecond\n third", null));
    }

    @Test
    void crLfAndCrlfAllEndLines() {
        assertThat(parse("data: a\r\rdata: b\r\n\r\ndata: c\n\n")).extracting(Ev::data)
                .containsExactly("a", "b", "c");
    }

    @Test
    void crAtTheEndOfAChunkFollowedByLfIsOneLineEnd() {
        Collect c = new Collect();
        byte[] a = "data: x\r".getBytes(StandardCharsets.UTF_8);
        byte[] b = "\n\r\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(a, 0, a.length);
        c.parser.feed(b, 0, b.length);
        assertThat(c.events).containsExactly(new Ev("message", "x", null));
    }

    @Test
    void leadingBomIsSkippedOnlyAtTheStart() {
        assertThat(parse("\uFEFFdata: a\n\n")).containsExactly(new Ev("message", "a", null));
        // a BOM later is part of the field name, so the line is an unknown field
        assertThat(parse("data: a\n\n\uFEFFdata: b\n\n")).extracting(Ev::data).containsExactly("a");
    }

    @Test
    void commentsAndUnknownFieldsAreIgnored() {
        assertThat(parse(": hello\nfoo: bar\ndata: x\n: mid\n\n")).containsExactly(new Ev("message", "x", null));
    }

    @Test
    void eventTypeIdsAndTheirPersistence() {
        Collect c = new Collect();
        byte[] b = ("event: ping\nid: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: x\u0000y\ndata: d\n\n")
                .getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.events).containsExactly(new Ev("ping", "a", "1"), new Ev("message", "b", "1"),
                new Ev("message", "c", null), new Ev("message", "d", null));
    }

    @Test
    void primingEventWithIdAndEmptyDataSetsTheLastEventId() {
        Collect c = new Collect();
        byte[] b = "id: event-1\nretry: 500\ndata: \n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.parser.lastEventId()).isEqualTo("event-1");
        assertThat(c.parser.retryMillis()).isEqualTo(500);
        assertThat(c.events).containsExactly(new Ev("message", "", "event-1"));
        // an id without data and without a blank line is not yet the last event id
        byte[] more = "id: event-2\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(more, 0, more.length);
        assertThat(c.parser.lastEventId()).isEqualTo("event-1");
    }

    @Test
    void retryNeedsDigitsOnly() {
        Collect c = new Collect();
        byte[] b = "retry: 12a\nretry: -5\nretry:\nretry: 250\nretry: 1.5\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.parser.retryMillis()).isEqualTo(250);
    }

    @Test
    void fieldWithoutColonHasEmptyValue() {
        assertThat(parse("data\ndata\n\n")).containsExactly(new Ev("message", "\n", null));
    }

    @Test
    void unterminatedLastEventIsDropped() {
        assertThat(parse("data: a\n\ndata: b\n")).extracting(Ev::data).containsExactly("a");
    }

    @Test
    void utf8SplitAcrossChunksIsDecoded() {
        assertThat(parse("data: h\u00e9llo \u20ac \uD83D\uDE00\n\n")).extracting(Ev::data)
                .containsExactly("h\u00e9llo \u20ac \uD83D\uDE00");
    }

    @Test
    void initialLastEventIdIsKeptUntilReplaced() {
        Collect c = new Collect(1000, "resume-7");
        byte[] b = "data: x\n\n".getBytes(StandardCharsets.UTF_8);
        c.parser.feed(b, 0, b.length);
        assertThat(c.events).containsExactly(new Ev("message", "x", "resume-7"));
    }

    @Test
    void oversizedLinesAndEventsFail() {
        Collect line = new Collect(16, null);
        byte[] longLine = ("data: " + "x".repeat(20)).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> line.parser.feed(longLine, 0, longLine.length))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("16 bytes");
        Collect event = new Collect(16, null);
        byte[] many = "data: 12345\ndata: 12345\ndata: 12345\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> event.parser.feed(many, 0, many.length))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("event larger");
        // comments do not count toward the event size
        Collect comments = new Collect(16, null);
        byte[] c = ": 1234567890\n: 1234567890\ndata: ok\n\n".getBytes(StandardCharsets.UTF_8);
        comments.parser.feed(c, 0, c.length);
        assertThat(comments.events).extracting(Ev::data).containsExactly("ok");
    }
}
