package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real peer for the JOSE output: the pinned {@code jose} package, the library the MCP conformance suite checks
 * clients with, verifies our {@code private_key_jwt} assertions (from a PKCS#8 PEM that {@code jose} exported, as the
 * suite's {@code client-credentials-jwt} context carries) and our DPoP proofs, the way the suite does (audience
 * {@code <A>} or {@code <A>/}, {@code typ}, public {@code jwk}, {@code htm}/{@code htu}/{@code iat}/{@code ath}), and
 * computes the same RFC 7638 thumbprint.
 */
@ExtendWith(LeakCheck.class)
class JoseInteropTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    static final String AUDIENCE = "http://127.0.0.1:45678";

    @TempDir
    Path tmp;

    static Path nodeDir() {
        String prop = System.getProperty("loommcp.node.dir");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "test-servers").toAbsolutePath().normalize();
        Path jose = dir.resolve("node_modules/jose/package.json");
        assertThat(jose).as("the pinned jose package (run npm ci in test-servers)").isRegularFile();
        return dir;
    }

    JsonNode node(String mode, String stdin) throws Exception {
        Path dir = nodeDir();
        Path script = Path.of(JoseInteropTest.class.getResource("jose-check.mjs").toURI());
        Path err = tmp.resolve("stderr-" + mode + ".txt");
        Process p = processes.start(new ProcessBuilder("node", "-r", dir.resolve("loopback-only.cjs").toString(),
                script.toString(),
                dir.resolve("node_modules/jose/dist/webapi/index.js").toUri().toString(), mode)
                .redirectError(err.toFile()));
        try {
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            byte[] out = p.getInputStream().readAllBytes();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("node ended").isTrue();
            assertThat(p.exitValue()).as("node exit; stderr: %s", Files.readString(err)).isZero();
            return AuthHttp.JSON.readTree(out);
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static String spki(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(key.getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }

    @Test
    void joseVerifiesOurAssertionsAndDpopProofsAndAgreesOnTheThumbprint() throws Exception {
        // the suite's client-credentials-jwt context: a PKCS#8 PEM exported by jose
        JsonNode gen = node("gen", "");
        String pem = gen.get("pkcs8").stringValue();
        ObjectNode input = AuthHttp.JSON.createObjectNode();
        ArrayNode cases = input.putArray("cases");
        List<String> expectedAlgs = new ArrayList<>();

        ClientAuthentication.PrivateKeyJwt fromPem = (ClientAuthentication.PrivateKeyJwt)
                ClientAuthentication.privateKeyJwt(pem, "ES256");
        addAssertion(cases, TokenEndpoint.clientAssertion(fromPem, "conformance-test-client", AUDIENCE),
                gen.get("spki").stringValue(), "ES256");
        expectedAlgs.add("ES256");
        for (Object[] k : new Object[][] {{KeysTest.P384, "ES384"}, {KeysTest.P521, "ES512"},
                {KeysTest.RSA2048, "RS256"}, {KeysTest.RSA2048, "PS256"}, {KeysTest.RSA2048, "PS512"}}) {
            KeyPair pair = (KeyPair) k[0];
            String alg = (String) k[1];
            ClientAuthentication.PrivateKeyJwt auth = (ClientAuthentication.PrivateKeyJwt)
                    ClientAuthentication.privateKeyJwt(pair.getPrivate(), alg, "kid-" + alg);
            addAssertion(cases, TokenEndpoint.clientAssertion(auth, "conformance-test-client", AUDIENCE + "/"),
                    spki(pair.getPublic()), alg);
            expectedAlgs.add(alg);
        }

        DpopKey key = DpopKey.generate();
        DpopProofs proofs = new DpopProofs(key);
        addProof(cases, proofs.proof("POST", URI.create(AUDIENCE + "/token"), null), "POST", AUDIENCE + "/token",
                null);
        proofs.nonce(URI.create("http://LOCALHOST:3000/"), "conformance-rs-dpop-nonce");
        String token = "eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJjbmYiOnsiamt0IjoieCJ9fQ.c2ln";
        addProof(cases, proofs.proof("POST", URI.create("http://localhost:3000/mcp?session=1#f"), token), "POST",
                "http://localhost:3000/mcp", token);
        addProof(cases, proofs.proof("GET", URI.create("http://localhost:3000/mcp"), token), "GET",
                "http://localhost:3000/mcp", token);

        JsonNode results = node("check", AuthHttp.JSON.writeValueAsString(input)).get("results");
        assertThat(results).hasSize(cases.size());
        for (int i = 0; i < expectedAlgs.size(); i++) {
            JsonNode r = results.get(i);
            assertThat(r.get("ok").asBoolean()).as("assertion %s: %s", expectedAlgs.get(i), r).isTrue();
            assertThat(r.get("iss").stringValue()).isEqualTo("conformance-test-client");
            assertThat(r.get("sub").stringValue()).isEqualTo("conformance-test-client");
            assertThat(r.get("alg").stringValue()).isEqualTo(expectedAlgs.get(i));
        }
        List<String> jtis = new ArrayList<>();
        for (int i = expectedAlgs.size(); i < results.size(); i++) {
            JsonNode r = results.get(i);
            assertThat(r.get("ok").asBoolean()).as("proof %d: %s", i, r).isTrue();
            assertThat(r.get("jkt").stringValue()).isEqualTo(key.thumbprint());
            jtis.add(r.get("jti").stringValue());
        }
        assertThat(results.get(expectedAlgs.size()).get("nonce").isNull()).isTrue();
        assertThat(results.get(expectedAlgs.size() + 1).get("nonce").stringValue())
                .isEqualTo("conformance-rs-dpop-nonce");
        assertThat(jtis).doesNotHaveDuplicates();
    }

    @Test
    void joseRefusesAProofForAnotherUriOrToken() throws Exception {
        DpopProofs proofs = new DpopProofs(DpopKey.generate());
        ObjectNode input = AuthHttp.JSON.createObjectNode();
        ArrayNode cases = input.putArray("cases");
        addProof(cases, proofs.proof("POST", URI.create("http://localhost:3000/other"), "t"), "POST",
                "http://localhost:3000/mcp", "t");
        addProof(cases, proofs.proof("POST", URI.create("http://localhost:3000/mcp"), "t"), "POST",
                "http://localhost:3000/mcp", "another-token");
        addProof(cases, proofs.proof("POST", URI.create("http://localhost:3000/mcp"), null), "GET",
                "http://localhost:3000/mcp", null);
        JsonNode results = node("check", AuthHttp.JSON.writeValueAsString(input)).get("results");
        assertThat(results.get(0).get("error").stringValue()).startsWith("htu");
        assertThat(results.get(1).get("error").stringValue()).isEqualTo("ath");
        assertThat(results.get(2).get("error").stringValue()).isEqualTo("htm");
    }

    static void addAssertion(ArrayNode cases, String jwt, String spki, String alg) {
        cases.addObject().put("kind", "assertion").put("jwt", jwt).put("spki", spki).put("alg", alg)
                .put("audience", AUDIENCE);
    }

    static void addProof(ArrayNode cases, String proof, String htm, String htu, String accessToken) {
        cases.addObject().put("kind", "dpop").put("proof", proof).put("htm", htm).put("htu", htu)
                .put("accessToken", accessToken);
    }
}
