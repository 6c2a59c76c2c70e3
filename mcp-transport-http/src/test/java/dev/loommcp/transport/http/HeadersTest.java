package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSessionTest.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The typed header list of the transport (issue 28): names are tokens, values can be sent as they are (never CR or
 * LF), the order and repeated names are kept, credentials replace a caller header of the same name, and values are
 * never shown.
 */
class HeadersTest {

    @Test
    void fieldsKeepTheirOrderAndRepeatedNames() {
        Headers h = Headers.of("A", "1", "B", "2").plus("A", "3");
        assertThat(render(h)).containsExactly("A: 1", "B: 2", "A: 3");
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost/"));
        h.addTo(b);
        assertThat(b.build().headers().allValues("a")).containsExactly("1", "3");
        TreeMap<String, List<String>> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        h.addTo(all);
        assertThat(all).containsEntry("a", List.of("1", "3")).containsEntry("B", List.of("2"));
    }

    @Test
    void aValueThatCannotBeSentAsItIsIsRefusedNamingTheHeaderOnly() {
        for (String bad : List.of("two\r\nlines", "line\nfeed", "bell\u0007", "caf\u00e9", "del\u007f")) {
            assertThatThrownBy(() -> Headers.NONE.plus("X-Key", "secret-" + bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("X-Key").hasMessageNotContaining("secret");
            assertThatThrownBy(() -> Headers.of("X-Key", "secret-" + bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("secret");
        }
        assertThat(render(Headers.NONE.plus("X-Key", "tab\tand space"))).containsExactly("X-Key: tab\tand space");
    }

    @Test
    void aNameThatIsNotATokenIsRefused() {
        for (String bad : List.of("", "Two Words", "Colon:", "Line\nBreak")) {
            assertThatThrownBy(() -> Headers.NONE.plus(bad, "v")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not an HTTP token");
        }
        assertThatThrownBy(() -> Headers.of("A")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replacingDropsEveryFieldOfTheSameNameWhateverItsCase() {
        Headers caller = Headers.of("Authorization", "Bearer static", "X-A", "1", "authorization", "again");
        Map<String, String> credentials = new LinkedHashMap<>();
        credentials.put("AUTHORIZATION", "Bearer fresh");
        assertThat(render(caller.replacing(credentials)))
                .containsExactly("X-A: 1", "AUTHORIZATION: Bearer fresh");
        assertThat(render(caller.plusAll(Map.of("X-Sig", "s")))).endsWith("X-Sig: s").hasSize(4);
    }

    @Test
    void valuesAreNeverShown() {
        Headers h = Headers.of("Authorization", "Bearer secret-token", "Mcp-Session-Id", "secret-session");
        assertThat(h.toString()).isEqualTo("[Authorization: <redacted>, Mcp-Session-Id: <redacted>]")
                .doesNotContain("secret");
        assertThat(HttpTransport.newBuilder("http://localhost/mcp").header("X-Key", "secret-key").toString())
                .contains("headers=[X-Key: <redacted>]").doesNotContain("secret");
    }
}
