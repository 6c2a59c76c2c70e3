package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Mutual TLS: a client identity from PEM files or PKCS#12 against an HTTPS server that requires one. */
@ExtendWith(LeakCheck.class)
class HttpTransportTlsTest {

    static final char[] PASSWORD = "changeit-test".toCharArray();

    @TempDir
    static Path dir;
    static Path serverP12;
    static Path serverPem;
    static Path clientP12;
    static Path clientPem;
    static Path clientKeyPem;
    static String clientKeyBase64;

    TestServer server;
    RecordingSink sink = new RecordingSink();

    @BeforeAll
    static void makeCertificates() throws Exception {
        serverP12 = dir.resolve("server.p12");
        clientP12 = dir.resolve("client.p12");
        serverPem = dir.resolve("server.pem");
        clientPem = dir.resolve("client.pem");
        clientKeyPem = dir.resolve("client-key.pem");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=localhost", "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                serverP12.toString(), "-storepass", new String(PASSWORD));
        keytool("-genkeypair", "-alias", "client", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=loom-client",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", clientP12.toString(), "-storepass",
                new String(PASSWORD));
        Base64.Encoder pem = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        KeyStore serverKs = load(serverP12);
        Files.writeString(serverPem, "-----BEGIN CERTIFICATE-----\n"
                + pem.encodeToString(serverKs.getCertificate("server").getEncoded()) + "\n-----END CERTIFICATE-----\n");
        KeyStore ks = load(clientP12);
        Files.writeString(clientPem, "-----BEGIN CERTIFICATE-----\n"
                + pem.encodeToString(ks.getCertificate("client").getEncoded()) + "\n-----END CERTIFICATE-----\n");
        PrivateKey key = (PrivateKey) ks.getKey("client", PASSWORD);
        clientKeyBase64 = pem.encodeToString(key.getEncoded());
        Files.writeString(clientKeyPem, "-----BEGIN PRIVATE KEY-----\n" + clientKeyBase64
                + "\n-----END PRIVATE KEY-----\n");
    }

    static KeyStore load(Path p12) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, PASSWORD);
        }
        return ks;
    }

    static void keytool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    /** The server: its own key, trusting only the client's certificate, requiring a client certificate. */
    static SSLContext serverContext() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(serverP12)) {
            ks.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(clientPem)) {
            trust.setCertificateEntry("client",
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    @BeforeEach
    void start() throws Exception {
        server = new TestServer(serverContext());
        server.handler((req, ex) -> TestServer.json(ex, 200, TestServer.result(req.rpcId(), "{}")));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    void ping(HttpTransport.Builder b) throws Exception {
        try (HttpTransport t = b.build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.exchange(new JsonRpcMessage.Request(RequestId.of(1), "ping", null), TestContext.of(1));
        }
    }

    @Test
    void pemIdentityIsPresented() throws Exception {
        ping(HttpTransport.newBuilder(server.uri("/mcp")).clientIdentityPem(clientPem, clientKeyPem)
                .trustedCertificatesPem(serverPem));
        assertThat(sink.messages()).hasSize(1);
        assertThat(server.peers).containsExactly("CN=loom-client");
    }

    @Test
    void pkcs12IdentityIsPresented() throws Exception {
        HttpTransport.Builder b = HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPkcs12(clientP12, PASSWORD.clone()).trustedCertificatesPem(serverPem);
        assertThat(b.toString()).contains("PKCS#12 identity").doesNotContain(new String(PASSWORD));
        ping(b);
        assertThat(server.peers).containsExactly("CN=loom-client");
    }

    @Test
    void withoutAnIdentityTheHandshakeFails() throws Exception {
        assertThatThrownBy(() -> ping(HttpTransport.newBuilder(server.uri("/mcp")).trustedCertificatesPem(serverPem)))
                .isInstanceOf(McpTransportException.class)
                .hasMessageContaining("POST ping (id 1)");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void untrustedServerIsRefused() throws Exception {
        assertThatThrownBy(() -> ping(HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPem(clientPem, clientKeyPem)))
                .isInstanceOf(McpTransportException.class);
        assertThat(server.requests).isEmpty();
    }

    @Test
    void badKeyMaterialFailsAtBuildWithoutRevealingIt() throws Exception {
        assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPkcs12(clientP12, "wrong-password".toCharArray()).build())
                .isInstanceOf(McpTransportException.class)
                .hasMessageContaining("client.p12")
                .hasMessageNotContaining("wrong-password");
        Path encrypted = dir.resolve("enc.pem");
        Files.writeString(encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPem(clientPem, encrypted).build())
                .isInstanceOf(McpTransportException.class).hasMessageContaining("encrypted");
        Path corrupt = dir.resolve("corrupt.pem");
        String truncated = clientKeyBase64.substring(0, 200);
        Files.writeString(corrupt, "-----BEGIN PRIVATE KEY-----\n" + truncated + "\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPem(clientPem, corrupt).build())
                .isInstanceOf(McpTransportException.class)
                .hasMessageContaining("corrupt.pem")
                .satisfies(e -> assertThat(e.toString()).doesNotContain(truncated.substring(0, 40)))
                .hasNoCause();
        // a key that does not match the certificate
        assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPem(serverPem, clientKeyPem).build())
                .isInstanceOf(McpTransportException.class);
        assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                .clientIdentityPem(clientPem, clientKeyPem).sslContext(SSLContext.getDefault()).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void callersSslContextIsUsedAsIs() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(clientP12)) {
            ks.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(serverPem)) {
            trust.setCertificateEntry("server",
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        ping(HttpTransport.newBuilder(server.uri("/mcp")).sslContext(ctx));
        assertThat(server.peers).containsExactly("CN=loom-client");
    }
}
