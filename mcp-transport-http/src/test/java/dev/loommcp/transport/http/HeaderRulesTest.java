package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The header rules shared by the builder, the request signer check and the CLI's {@code --header}: names are RFC 9110
 * tokens, the transport's own and the JDK's forbidden names are reserved, values have no control characters.
 */
class HeaderRulesTest {

    /** RFC 9110 section 5.6.2: tchar is one of {@code !#$%&'*+-.^_`|~}, a DIGIT or an ALPHA. */
    private static boolean rfcTchar(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    @Test
    void aTokenIsExactlyTheRfcTcharSet() {
        for (char c = 0; c < 0x2000; c++) {
            assertThat(HeaderRules.isToken("X" + c)).as("U+%04X", (int) c).isEqualTo(rfcTchar(c));
        }
        assertThat(HeaderRules.isToken("Authorization")).isTrue();
        assertThat(HeaderRules.isToken("")).isFalse();
        assertThat(HeaderRules.isToken(null)).isFalse();
    }

    @Test
    void reservedNamesAreTheTransportsOwnAndTheJdksForbiddenOnesInAnyCase() {
        for (String name : List.of("Accept", "content-type", "MCP-SESSION-ID", "Mcp-Protocol-Version",
                "last-event-id", "Host", "content-length", "Connection", "Expect", "Upgrade", "Transfer-Encoding",
                "TE", "Keep-Alive", "Trailer", "Mcp-Method", "MCP-NAME", "Mcp-Param-Region", "mcp-param-x")) {
            assertThat(HeaderRules.isReserved(name)).as(name).isTrue();
            assertThatThrownBy(() -> HttpTransport.newBuilder("http://127.0.0.1:1/mcp").header(name, "v"))
                    .as(name).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(name);
        }
        assertThat(HeaderRules.isReserved("Authorization")).isFalse();
        assertThat(HeaderRules.isReserved("X-Api-Key")).isFalse();
        assertThat(HeaderRules.isReserved("Mcp-Parameter")).isFalse();
    }

    /**
     * Only what reaches the server as it is: the JDK's HTTP/1.1 client writes header lines as US-ASCII, so Latin-1
     * ("café") would arrive as "caf?", as a raw socket shows.
     */
    @Test
    void valuesRefuseControlCharactersDelAndNonAsciiButAllowTab() {
        assertThat(HeaderRules.isValidValue("Bearer abc.def")).isTrue();
        assertThat(HeaderRules.isValidValue("a\tb")).isTrue();
        assertThat(HeaderRules.isValidValue(" !~")).isTrue();
        assertThat(HeaderRules.isValidValue("caf\u00e9")).isFalse();
        assertThat(HeaderRules.isValidValue("\u00a0")).isFalse();
        assertThat(HeaderRules.isValidValue("")).isTrue();
        assertThat(HeaderRules.isValidValue("a\rb")).isFalse();
        assertThat(HeaderRules.isValidValue("a\nb")).isFalse();
        assertThat(HeaderRules.isValidValue("a\u0000b")).isFalse();
        assertThat(HeaderRules.isValidValue("a\u007fb")).isFalse();
        assertThat(HeaderRules.isValidValue("\u20ac")).isFalse();
    }

    @Test
    void problemsNameTheHeaderNeverTheValue() {
        assertThat(HeaderRules.problem("X-A", "ok")).isNull();
        assertThat(HeaderRules.problem("", "v")).isEqualTo("a header without a name");
        assertThat(HeaderRules.problem("X A", "v")).isEqualTo("a header name that is not an HTTP token");
        assertThat(HeaderRules.problem("accept", "v")).isEqualTo("the header accept, which the transport sets itself");
        assertThat(HeaderRules.problem("Host", "v")).isEqualTo("the header Host, which the HTTP client does not allow");
        assertThat(HeaderRules.problem("X-A", null)).isEqualTo("a null value for the header X-A");
        assertThat(HeaderRules.problem("X-A", "SECRET\n")).isEqualTo(
                "an invalid value (control or non-ASCII character) for the header X-A");
    }
}
