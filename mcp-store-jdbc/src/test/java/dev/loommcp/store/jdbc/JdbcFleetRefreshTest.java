package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.Deadline;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three {@link McpOAuth} instances, each on its own {@link JdbcTokenStore} over one database (three replicas of a
 * backend in one JVM), find the shared access token expired at once: exactly one refreshes (under the database's
 * lease), the others wait and take its tokens, and the authorization server, which revokes the family on reuse,
 * never sees a refresh token twice.
 */
@ExtendWith(LeakCheck.class)
class JdbcFleetRefreshTest extends PgTest {

    @Test
    void concurrentRefreshersAcrossReplicasRefreshOnceAndNothingIsRevoked() throws Exception {
        byte[] key = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
        List<McpOAuth> replicas = new ArrayList<>();
        try (RotatingAuthServer as = new RotatingAuthServer()) {
            for (int i = 0; i < 3; i++) {
                replicas.add(McpOAuth.newBuilder().clientCredentials()
                        .client("fleet-client", ClientAuthentication.clientSecretBasic("fleet-secret"))
                        .tokenStore(JdbcTokenStore.newBuilder(db.dataSource)
                                .encryptionKey("k1", new SecretKeySpec(key, "AES")).build())
                        .build());
            }
            JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k1", new SecretKeySpec(key, "AES")).build()
                    .saveTokens(as.mcp().toString(), new TokenSet(as.base, "at-expired", "Bearer",
                            as.issueRefreshToken(), Instant.now().minusSeconds(5), null));
            int perReplica = 30;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Map<String, String>>> got = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (McpOAuth r : replicas) {
                    for (int i = 0; i < perReplica; i++) {
                        got.add(pool.submit(() -> {
                            start.await();
                            return r.credentials(new AuthorizationRequest(as.mcp(), "POST", as.mcp(), 0,
                                    Deadline.after(Duration.ofSeconds(60))));
                        }));
                    }
                }
                start.countDown();
                List<String> authorization = new ArrayList<>();
                for (Future<Map<String, String>> f : got) {
                    authorization.add(f.get(120, TimeUnit.SECONDS).get("Authorization"));
                }
                assertThat(authorization).hasSize(3 * perReplica).containsOnly(authorization.getFirst());
                assertThat(authorization.getFirst()).isNotEqualTo("Bearer at-expired");
            }
            assertThat(as.refreshes.get()).isEqualTo(1);
            assertThat(as.revocations.get()).isZero();
        } finally {
            replicas.forEach(McpOAuth::close);
        }
    }
}
