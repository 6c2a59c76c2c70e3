package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** WWW-Authenticate parsing (RFC 9110 section 11.6.1). */
class AuthChallengeTest {

    @Test
    void bearerWithQuotedAndTokenParameters() {
        List<AuthChallenge> c = AuthChallenge.parse(List.of("Bearer realm=\"example\", error=invalid_token, "
                + "error_description=\"The token \\\"expired\\\"\", "
                + "resource_metadata=\"https://rs.example/.well-known/oauth-protected-resource/mcp\""));
        assertThat(c).hasSize(1);
        assertThat(c.get(0).scheme()).isEqualTo("Bearer");
        assertThat(c.get(0).parameters()).containsExactly(
                Map.entry("realm", "example"), Map.entry("error", "invalid_token"),
                Map.entry("error_description", "The token \"expired\""),
                Map.entry("resource_metadata", "https://rs.example/.well-known/oauth-protected-resource/mcp"));
        assertThat(c.get(0).parameter("RESOURCE_METADATA"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("https://"));
        assertThat(c.get(0).parameter("scope")).isEmpty();
    }

    @Test
    void severalChallengesInOneHeaderAndAcrossHeaders() {
        List<AuthChallenge> c = AuthChallenge.parse(List.of(
                "Basic realm=\"a, b\", Bearer scope=\"read write\", error=\"insufficient_scope\"",
                "Negotiate abc+/def==", "NoParams"));
        assertThat(c).extracting(AuthChallenge::scheme).containsExactly("Basic", "Bearer", "Negotiate", "NoParams");
        assertThat(c.get(0).parameters()).containsExactly(Map.entry("realm", "a, b"));
        assertThat(c.get(1).parameters()).containsEntry("scope", "read write")
                .containsEntry("error", "insufficient_scope");
        assertThat(c.get(2).token68()).isEqualTo("abc+/def==");
        assertThat(c.get(2).parameters()).isEmpty();
        assertThat(c.get(3).parameters()).isEmpty();
    }

    @Test
    void whitespaceAroundEqualsAndEmptyListItems() {
        List<AuthChallenge> c = AuthChallenge.parse(List.of(" , Bearer  realm = \"x\" ,, scope=a ,"));
        assertThat(c).hasSize(1);
        assertThat(c.get(0).parameters()).containsExactly(Map.entry("realm", "x"), Map.entry("scope", "a"));
    }

    @Test
    void garbageNeverThrows() {
        List<AuthChallenge> parsed = AuthChallenge.parse(List.of("", "===", "\"unterminated", "Bearer realm=\"open"));
        // only the last value names a scheme; nothing in the rest may turn into a challenge
        assertThat(parsed).extracting(AuthChallenge::scheme).containsOnly("Bearer");
        McpHttpStatusException e = new McpHttpStatusException(403, "x",
                AuthChallenge.parse(List.of("Basic realm=x", "Bearer scope=s")));
        assertThat(e.authParameters()).containsExactly(Map.entry("scope", "s"));
        assertThat(new McpHttpStatusException(500, "x", List.of()).authParameters()).isEmpty();
    }
}
