package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.HttpTransport;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** McpOAuth as the real HTTP transport's authorization provider, against the in-test servers. */
@ExtendWith(LeakCheck.class)
class McpOAuthTransportTest {

    FakeOAuth as;

    @BeforeEach
    void setUp() throws Exception {
        as = new FakeOAuth();
    }

    @AfterEach
    void tearDown() {
        as.close();
    }

    McpClient client(McpOAuth oauth) {
        HttpTransport t = HttpTransport.newBuilder(as.mcp()).authorization(oauth).build();
        return McpClient.newBuilder(t).protocolMode(ProtocolMode.LEGACY).requestTimeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void aSessionAuthorizesOnceAndStepsUpThroughTheTransport() throws Exception {
        as.challengeScope = "mcp:basic";
        try (McpOAuth oauth = McpOAuth.newBuilder()
                .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/cb")))
                .tokenStore(new MapStore()).build();
             McpClient client = client(oauth)) {
            client.connect();
            assertThat(client.listTools(null, RequestOptions.DEFAULT).tools()).hasSize(1);
            assertThat(as.authorizeRequests.get()).isEqualTo(1);
            as.requiredScope = "mcp:write";
            client.ping(RequestOptions.DEFAULT);
            assertThat(as.authorizeQueries).extracting(q -> q.get("scope"))
                    .containsExactly("mcp:basic", "mcp:basic mcp:write");
            assertThat(as.mcpAuthorization.getLast()).startsWith("Bearer at-");
        }
    }

    @Test
    void aRefusedAuthorizationFailsTheCallWithItsReason() throws Exception {
        as.iss = "wrong";
        try (McpOAuth oauth = McpOAuth.newBuilder()
                .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/cb")))
                .tokenStore(new MapStore()).build();
             McpClient client = client(oauth)) {
            assertThatThrownBy(client::connect).hasStackTraceContaining("McpAuthorizationException")
                    .hasStackTraceContaining("RFC 9207");
            assertThat(as.tokenRequests.get()).isZero();
        }
    }
}
