package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpClient;
import dev.loommcp.auth.AssertionSource;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import dev.loommcp.auth.EnterpriseIdp;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpOAuthFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No secret in logs, exception messages or {@code toString()}: runs the auth flows against
 * {@code test-servers/oauth-fixture.mjs} with every {@code dev.loommcp} logger at {@code ALL} (System.Logger goes to
 * java.util.logging here; every record is captured with its parameters and its exception's stack trace), keeps every
 * exception's full text and the {@code toString()} of every auth object, and fails if any secret used appears in
 * them: the fixture's issued client secrets, authorization codes, access and refresh tokens (the fixture lists
 * them), a pre-registered client secret, a private key (its PEM, its private scalar in base64url, hex and decimal),
 * a DPoP key's private scalar, a workload identity assertion, an enterprise ID token. The flows: authorization code,
 * refresh after expiry, logout and re-authorization, a DPoP key configured (proofs at the token endpoint); refused
 * ones (an unknown pre-registered client, client credentials with {@code private_key_jwt}, JWT bearer,
 * enterprise-managed with a refusing IdP), whose exceptions are scanned. (The conformance suite's flows, with the suite's own secrets, are scanned by the CLI's
 * {@code ConformanceSecretScanIT}.)
 */
@ExtendWith(LeakCheck.class)
class SecretScanTest {

    /** Captures every record, formatted with its parameters and its exception's stack trace. */
    static final class Capture extends Handler {
        final StringBuilder text = new StringBuilder();
        int records;

        @Override
        public synchronized void publish(LogRecord record) {
            records++;
            text.append(record.getLevel()).append(' ').append(record.getLoggerName()).append(": ")
                    .append(new SimpleFormatter().formatMessage(record)).append('\n');
            if (record.getParameters() != null) {
                for (Object p : record.getParameters()) {
                    text.append("  param: ").append(p).append('\n');
                }
            }
            if (record.getThrown() != null) {
                text.append(stackTrace(record.getThrown()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private final Capture capture = new Capture();
    private final Logger loom = Logger.getLogger("dev.loommcp");
    private Level loomLevel;

    @BeforeEach
    void captureEverything() {
        capture.setLevel(Level.ALL);
        loomLevel = loom.getLevel();
        loom.setLevel(Level.ALL);
        loom.addHandler(capture);
    }

    @AfterEach
    void restore() {
        loom.removeHandler(capture);
        loom.setLevel(loomLevel);
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** A P-256 key and every form its private part could leak in. */
    record Key(KeyPair pair, String pem, List<String> secrets) {
        static Key generate() throws Exception {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return of(g.generateKeyPair());
        }

        static Key of(KeyPair pair) {
            byte[] pkcs8 = pair.getPrivate().getEncoded();
            String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pkcs8);
            String pem = "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
            BigInteger s = ((ECPrivateKey) pair.getPrivate()).getS();
            byte[] d = s.toByteArray();
            List<String> secrets = new ArrayList<>(List.of(Base64.getEncoder().encodeToString(pkcs8),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(d), HexFormat.of().formatHex(d),
                    s.toString()));
            body.lines().forEach(secrets::add); // each PEM line
            // the JWK form: exactly 32 bytes, big-endian, no sign byte
            byte[] fixed = new byte[32];
            int n = Math.min(d.length, 32);
            System.arraycopy(d, d.length - n, fixed, 32 - n, n);
            secrets.add(Base64.getUrlEncoder().withoutPadding().encodeToString(fixed));
            secrets.add(HexFormat.of().formatHex(fixed));
            return new Key(pair, pem, List.copyOf(secrets));
        }
    }

    private final List<String> secrets = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();

    /** Runs a flow expected to be refused and keeps its exception's whole text. */
    private void refused(HttpOAuthFixture fixture, McpOAuth oauth) {
        try (oauth) {
            Throwable t = catchThrowable(() -> {
                try (McpClient c = OAuthFixtureTest.connect(fixture, oauth)) {
                    OAuthFixtureTest.echo(c, "never");
                }
            });
            assertThat(t).as("the flow is refused").isNotNull();
            texts.add(t.toString());
            texts.add(stackTrace(t));
            texts.add(oauth.toString());
        }
    }

    @Test
    void noSecretAppearsInLogsExceptionsOrToString() throws Exception {
        Key clientKey = Key.generate();
        DpopKey dpop = DpopKey.generate();
        Key dpopKey = Key.of(dpop.keyPair());
        String clientSecret = "scan-client-secret-7f3a9c";
        String workloadToken = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzY2FuLXdvcmtsb2FkIn0.c2Nhbi13b3JrbG9hZC1zaWc";
        String idToken = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzY2FuLXVzZXIifQ.c2Nhbi1pZC10b2tlbi1zaWc";
        secrets.add(clientSecret);
        secrets.add(workloadToken);
        secrets.add(idToken);
        secrets.addAll(clientKey.secrets());
        secrets.addAll(dpopKey.secrets());
        try (HttpOAuthFixture fixture = new HttpOAuthFixture("--access-ttl", "2")) {
            // authorization code, refresh after expiry, logout, authorization again
            try (McpOAuth oauth = McpOAuth.newBuilder()
                    .authorizationCode(AuthorizationCodeHandler.nonInteractive(OAuthFixtureTest.REDIRECT)).build();
                 McpClient client = OAuthFixtureTest.connect(fixture, oauth)) {
                OAuthFixtureTest.echo(client, "one");
                TokenSet first = OAuthFixtureTest.stored(oauth, fixture);
                await().atMost(Duration.ofSeconds(20)).until(() -> Instant.now().isAfter(first.expiresAt()));
                OAuthFixtureTest.echo(client, "two");
                TokenSet second = OAuthFixtureTest.stored(oauth, fixture);
                texts.add(first.toString());
                texts.add(second.toString());
                texts.add(oauth.tokenStore().registration(second.issuer()).orElseThrow().toString());
                texts.add(oauth.toString());
                texts.add(client.toString());
                oauth.logout(fixture.endpoint());
                OAuthFixtureTest.echo(client, "three");
                assertThat(fixture.stat("refreshes")).isEqualTo(1);
            }
            String idp = fixture.issuer().resolve("/token").toString();
            // a DPoP key: proofs go to the token endpoint; the fixture's authorization server lists no DPoP
            // algorithms and answers with a bearer token, which is used as such (RFC 9449 section 5)
            try (McpOAuth oauth = McpOAuth.newBuilder().dpop(dpop)
                    .authorizationCode(AuthorizationCodeHandler.nonInteractive(OAuthFixtureTest.REDIRECT)).build();
                 McpClient client = OAuthFixtureTest.connect(fixture, oauth)) {
                OAuthFixtureTest.echo(client, "with a DPoP key");
                texts.add(oauth.toString());
                texts.add(OAuthFixtureTest.stored(oauth, fixture).toString());
            }
            refused(fixture, McpOAuth.newBuilder().client("scan-unknown-client",
                            ClientAuthentication.clientSecret(clientSecret))
                    .authorizationCode(AuthorizationCodeHandler.nonInteractive(OAuthFixtureTest.REDIRECT)).build());
            refused(fixture, McpOAuth.newBuilder().client("scan-key-client",
                    ClientAuthentication.privateKeyJwt(clientKey.pem(), "ES256")).clientCredentials().build());
            refused(fixture, McpOAuth.newBuilder().client("scan-key-client",
                    ClientAuthentication.privateKeyJwt(clientKey.pair().getPrivate(), "ES256", "kid-1"))
                    .clientCredentials().build());
            refused(fixture, McpOAuth.newBuilder().client("scan-workload")
                    .jwtBearer(AssertionSource.of(workloadToken)).build());
            refused(fixture, McpOAuth.newBuilder().client("scan-xaa-client",
                            ClientAuthentication.clientSecret(clientSecret))
                    .enterpriseManaged(new EnterpriseIdp(java.net.URI.create(idp), "scan-idp-client",
                            ClientAuthentication.clientSecretPost(clientSecret), AssertionSource.of(idToken)))
                    .build());
            texts.add(ClientAuthentication.clientSecretBasic(clientSecret).toString());
            texts.add(ClientAuthentication.privateKeyJwt(clientKey.pem(), null).toString());
            texts.add(dpop.toString());
            secrets.addAll(fixture.secrets());
        }
        assertThat(capture.records).as("the loggers were captured").isPositive();
        texts.add(capture.text.toString());
        List<String> scanned = secrets.stream().filter(s -> s.length() >= 8).distinct().toList();
        assertThat(scanned).hasSizeGreaterThan(10);
        for (String text : texts) {
            for (String secret : scanned) {
                if (text.contains(secret)) {
                    int at = text.indexOf(secret);
                    throw new AssertionError("a secret leaked (shown masked): ..."
                            + text.substring(Math.max(0, at - 120), at) + "<SECRET>"
                            + text.substring(at + secret.length(), Math.min(text.length(),
                            at + secret.length() + 80)) + "...");
                }
            }
        }
    }
}
