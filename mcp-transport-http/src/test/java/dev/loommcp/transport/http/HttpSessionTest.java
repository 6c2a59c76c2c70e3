package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The session value: one id and version pair, changed one part at a time, and the headers each exchange sends. */
class HttpSessionTest {

    static List<String> render(Headers headers) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < headers.size(); i++) {
            out.add(headers.name(i) + ": " + headers.value(i));
        }
        return out;
    }

    @Test
    void withoutASessionOnlyTheExchangesOwnHeadersAreSent() {
        assertThat(render(HttpSession.NONE.postHeaders()))
                .containsExactly("Accept: application/json, text/event-stream", "Content-Type: application/json");
        assertThat(render(HttpSession.NONE.streamHeaders(null))).containsExactly("Accept: text/event-stream");
    }

    @Test
    void changingOnePartKeepsTheOther() {
        HttpSession s = HttpSession.NONE.withProtocolVersion("2025-06-18").withId("s1");
        assertThat(s).isEqualTo(new HttpSession("s1", "2025-06-18"));
        assertThat(s.withId("s2")).isEqualTo(new HttpSession("s2", "2025-06-18"));
        assertThat(s.withProtocolVersion("2025-11-25")).isEqualTo(new HttpSession("s1", "2025-11-25"));
    }

    @Test
    void everyExchangeSendsTheIdAndVersionOfOneValue() {
        HttpSession s = new HttpSession("s1", "2025-06-18");
        assertThat(render(s.postHeaders())).containsExactly("Accept: application/json, text/event-stream",
                "Content-Type: application/json", "Mcp-Session-Id: s1", "MCP-Protocol-Version: 2025-06-18");
        assertThat(render(s.streamHeaders("e7"))).containsExactly("Accept: text/event-stream",
                "Mcp-Session-Id: s1", "MCP-Protocol-Version: 2025-06-18", "Last-Event-ID: e7");
        assertThat(render(s.deleteHeaders()))
                .containsExactly("Mcp-Session-Id: s1", "MCP-Protocol-Version: 2025-06-18");
    }

    @Test
    void toStringDoesNotShowTheSessionId() {
        assertThat(new HttpSession("secret-session", "2025-06-18").toString())
                .doesNotContain("secret-session").contains("2025-06-18");
    }
}
