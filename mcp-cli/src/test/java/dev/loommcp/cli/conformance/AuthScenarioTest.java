package dev.loommcp.cli.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.auth.McpOAuth;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance client's OAuth configuration follows from the context alone (never the scenario's name): the
 * grant(s) per context, and a DPoP key always (used only where an authorization server offers DPoP).
 */
class AuthScenarioTest {

    static Stream<Arguments> contexts() {
        return Stream.of(
                // context, the grant(s) configured
                Arguments.of(Map.of(), "grant=authorization_code,"),
                Arguments.of(Map.of("client_id", "c"), "grant=authorization_code,"),
                Arguments.of(Map.of("client_id", "c", "client_secret", "s3cr3t-both"),
                        "grant=authorization_code or client_credentials,"),
                Arguments.of(Map.of("client_id", "c", "valid_jwt", "a.b.c"), "grant=jwt_bearer,"),
                Arguments.of(Map.of("client_id", "c", "client_secret", "s3cr3t-idp", "idp_token_endpoint",
                        "http://127.0.0.1:9/token", "idp_client_id", "i", "idp_id_token", "x.y.z"),
                        "grant=enterprise_managed,"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contexts")
    void theContextChoosesTheGrantsAndEveryConfigurationHasADpopKey(Map<String, Object> context, String grant) {
        try (McpOAuth oauth = AuthScenario.oauth(context)) {
            assertThat(oauth.toString()).contains(grant).contains(", dpop").doesNotContain("s3cr3t");
        }
    }
}
