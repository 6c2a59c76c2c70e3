package dev.loommcp.auth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-test authorization server and protected resource on one JDK HTTP server (127.0.0.1, ephemeral port): PRM,
 * AS metadata (at a configurable path and issuer), DCR, an authorization endpoint that approves at once (302 with
 * code, state, iss), a token endpoint (authorization code with a PKCE check, refresh with rotation, client
 * credentials, JWT bearer) and {@code POST /mcp} guarded by bearer or DPoP tokens. Every knob is a volatile field
 * the test sets before the flow; every request is counted and recorded.
 */
final class FakeOAuth implements AutoCloseable {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    final String base;

    // ---- knobs
    volatile String issuerPath = "";
    volatile String metadataPath = "/.well-known/oauth-authorization-server";
    volatile String metadataIssuer; // null: the issuer
    volatile String prmPath = "/.well-known/oauth-protected-resource/mcp"; // null: no PRM
    volatile String prmResource; // null: base + /mcp (or base for the root path)
    volatile String prmAuthServer; // null: the issuer
    volatile boolean prmInHeader = true;
    volatile String prmUrl; // the challenge's resource_metadata; null: base + prmPath
    volatile String tokenEndpoint; // the metadata's token_endpoint; null: the issuer's /token
    volatile List<String> prmScopes;
    volatile List<String> asScopes;
    volatile boolean registration = true;
    volatile boolean issSupported = true;
    volatile String iss = "correct"; // correct, wrong, omit, normalized
    volatile boolean cimd;
    volatile List<String> grantTypes = List.of("authorization_code", "refresh_token");
    volatile List<String> authMethods = List.of("none");
    volatile String dcrMethod; // token_endpoint_auth_method answered by DCR, null: none given
    volatile String dcrClientId = "dcr-client";
    volatile String challengeScope;
    volatile String requiredScope;
    volatile boolean alwaysInsufficient;
    volatile long expiresIn = 3600;
    volatile boolean issueRefresh = true;
    volatile boolean dpop;
    volatile String rsNonce;
    volatile boolean rsNonceHeader = true;
    volatile String htmlAt; // a path answering 200 with an HTML page
    volatile String redirectAt; // a path answering 302 to /elsewhere
    volatile String tokenBody; // a successful token request's answer (200, sent as JSON), instead of the tokens
    volatile CountDownLatch tokenGate; // token responses wait for it when set
    volatile Consumer<Map<String, String>> onRefresh; // called before a refresh is answered
    /**
     * Refresh-token reuse detection (RFC 6819 section 5.2.2.3): a refresh token presented a second time revokes every
     * access and refresh token (the whole family) and counts in {@link #revocations}.
     */
    volatile boolean revokeFamilyOnReuse;
    /** Client IDs the token endpoint no longer knows (answered {@code invalid_client}). */
    final java.util.Set<String> forgottenClients = java.util.concurrent.ConcurrentHashMap.newKeySet();

    // ---- records
    final AtomicInteger tokenRequests = new AtomicInteger();
    final AtomicInteger refreshRequests = new AtomicInteger();
    final AtomicInteger authorizeRequests = new AtomicInteger();
    final AtomicInteger registerRequests = new AtomicInteger();
    final AtomicInteger mcpRequests = new AtomicInteger();
    final AtomicInteger revocations = new AtomicInteger();
    final List<String> paths = Collections.synchronizedList(new ArrayList<>());
    final List<Map<String, String>> authorizeQueries = Collections.synchronizedList(new ArrayList<>());
    final List<Map<String, String>> tokenForms = Collections.synchronizedList(new ArrayList<>());
    final List<String> tokenAuthorization = Collections.synchronizedList(new ArrayList<>());
    /** The {@code DPoP} header of each token request ({@code "null"} when absent). */
    final List<String> tokenProofs = Collections.synchronizedList(new ArrayList<>());
    final List<JsonNode> registrations = Collections.synchronizedList(new ArrayList<>());
    final List<String> mcpAuthorization = Collections.synchronizedList(new ArrayList<>());
    final List<String> mcpProofs = Collections.synchronizedList(new ArrayList<>());

    // ---- state
    final Map<String, String> access = new ConcurrentHashMap<>(); // token -> scope
    final Set<String> refresh = ConcurrentHashMap.newKeySet();
    /** Refresh tokens already exchanged (rotated away). */
    private final Set<String> usedRefresh = ConcurrentHashMap.newKeySet();
    private final Map<String, String[]> codes = new ConcurrentHashMap<>(); // code -> challenge, scope
    private final AtomicInteger serial = new AtomicInteger();

    FakeOAuth() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), 1024);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    URI mcp() {
        return URI.create(base + "/mcp");
    }

    String issuer() {
        return base + issuerPath;
    }

    /** Makes a valid access token (and refresh token) as if issued earlier. */
    TokenSet issue(String scope, java.time.Instant expiresAt) {
        int n = serial.incrementAndGet();
        String at = "at-pre-" + n;
        String rt = "rt-pre-" + n;
        access.put(at, scope == null ? "" : scope);
        refresh.add(rt);
        return new TokenSet(issuer(), at, "Bearer", rt, expiresAt, scope);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            paths.add(ex.getRequestMethod() + " " + path);
            String ip = issuerPath;
            if (path.equals(htmlAt)) {
                byte[] page = "<html><body>hello</body></html>".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "text/html");
                ex.sendResponseHeaders(200, page.length);
                ex.getResponseBody().write(page);
            } else if (path.equals(redirectAt)) {
                ex.getResponseHeaders().set("Location", base + "/elsewhere");
                ex.sendResponseHeaders(302, -1);
            } else if (path.equals("/mcp")) {
                mcp(ex);
            } else if (prmPath != null && path.equals(prmPath)) {
                prm(ex);
            } else if (path.equals(metadataPath)) {
                metadata(ex);
            } else if (path.equals(ip + "/authorize")) {
                authorize(ex);
            } else if (path.equals(ip + "/token")) {
                token(ex);
            } else if (path.equals(ip + "/register")) {
                register(ex);
            } else {
                send(ex, 404, "{\"error\":\"not_found\"}");
            }
        } catch (RuntimeException | InterruptedException e) {
            send(ex, 500, "{\"error\":\"server_error\"}");
        }
    }

    private void prm(HttpExchange ex) throws IOException {
        ObjectNode o = JSON.createObjectNode();
        String resource = prmResource;
        if (resource == null) {
            resource = "/.well-known/oauth-protected-resource".equals(prmPath) ? base : base + "/mcp";
        }
        o.put("resource", resource);
        o.putArray("authorization_servers").add(prmAuthServer != null ? prmAuthServer : issuer());
        if (prmScopes != null) {
            prmScopes.forEach(o.putArray("scopes_supported")::add);
        }
        send(ex, 200, o.toString());
    }

    private void metadata(HttpExchange ex) throws IOException {
        String a = issuer();
        ObjectNode o = JSON.createObjectNode();
        o.put("issuer", metadataIssuer != null ? metadataIssuer : a);
        o.put("authorization_endpoint", a + "/authorize");
        o.put("token_endpoint", tokenEndpoint != null ? tokenEndpoint : a + "/token");
        if (registration) {
            o.put("registration_endpoint", a + "/register");
        }
        o.putArray("response_types_supported").add("code");
        grantTypes.forEach(o.putArray("grant_types_supported")::add);
        o.putArray("code_challenge_methods_supported").add("S256");
        if (issSupported) {
            o.put("authorization_response_iss_parameter_supported", true);
        }
        authMethods.forEach(o.putArray("token_endpoint_auth_methods_supported")::add);
        if (asScopes != null) {
            asScopes.forEach(o.putArray("scopes_supported")::add);
        }
        if (cimd) {
            o.put("client_id_metadata_document_supported", true);
        }
        if (dpop) {
            o.putArray("dpop_signing_alg_values_supported").add("ES256");
        }
        send(ex, 200, o.toString());
    }

    private void register(HttpExchange ex) throws IOException {
        registerRequests.incrementAndGet();
        JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
        registrations.add(body);
        ObjectNode o = JSON.createObjectNode();
        o.put("client_id", dcrClientId);
        if (dcrMethod != null && !"none".equals(dcrMethod)) {
            o.put("client_secret", "dcr-secret-" + dcrClientId);
        }
        if (dcrMethod != null) {
            o.put("token_endpoint_auth_method", dcrMethod);
        }
        send(ex, 201, o.toString());
    }

    private void authorize(HttpExchange ex) throws IOException {
        authorizeRequests.incrementAndGet();
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        authorizeQueries.add(q);
        String code = "code-" + serial.incrementAndGet();
        codes.put(code, new String[] {q.get("code_challenge"), q.getOrDefault("scope", "")});
        StringBuilder loc = new StringBuilder(q.get("redirect_uri")).append("?code=").append(code);
        if (q.get("state") != null) {
            loc.append("&state=").append(enc(q.get("state")));
        }
        String issuerValue = metadataIssuer != null ? metadataIssuer : issuer();
        switch (iss) {
            case "correct" -> loc.append("&iss=").append(enc(issuerValue));
            case "wrong" -> loc.append("&iss=").append(enc("https://evil.example.com"));
            case "normalized" -> loc.append("&iss=").append(enc(issuerValue + "/"));
            default -> {
            }
        }
        ex.getResponseHeaders().set("Location", loc.toString());
        ex.sendResponseHeaders(302, -1);
    }

    private void token(HttpExchange ex) throws IOException, InterruptedException {
        tokenRequests.incrementAndGet();
        Map<String, String> f = query(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        tokenForms.add(f);
        tokenAuthorization.add(ex.getRequestHeaders().getFirst("Authorization"));
        tokenProofs.add(String.valueOf(ex.getRequestHeaders().getFirst("DPoP")));
        CountDownLatch gate = tokenGate;
        if (gate != null && !gate.await(30, TimeUnit.SECONDS)) {
            send(ex, 503, "{\"error\":\"gate\"}");
            return;
        }
        if (forgottenClients.contains(f.getOrDefault("client_id", ""))) {
            send(ex, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        String scope;
        switch (f.getOrDefault("grant_type", "")) {
            case "authorization_code" -> {
                String[] c = codes.remove(f.getOrDefault("code", ""));
                if (c == null || f.get("code_verifier") == null || !s256(f.get("code_verifier")).equals(c[0])) {
                    send(ex, 400, "{\"error\":\"invalid_grant\"}");
                    return;
                }
                scope = c[1];
            }
            case "refresh_token" -> {
                refreshRequests.incrementAndGet();
                Consumer<Map<String, String>> hook = onRefresh;
                if (hook != null) {
                    hook.accept(f);
                }
                String presented = f.getOrDefault("refresh_token", "");
                if (!refresh.remove(presented)) {
                    if (revokeFamilyOnReuse && usedRefresh.contains(presented)) {
                        revocations.incrementAndGet();
                        access.clear();
                        refresh.clear();
                    }
                    send(ex, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"unknown refresh token\"}");
                    return;
                }
                usedRefresh.add(presented);
                scope = f.getOrDefault("scope", "");
            }
            default -> scope = f.getOrDefault("scope", "");
        }
        if (tokenBody != null) {
            send(ex, 200, tokenBody);
            return;
        }
        int n = serial.incrementAndGet();
        String at = "at-" + n;
        access.put(at, scope);
        ObjectNode o = JSON.createObjectNode();
        o.put("access_token", at);
        o.put("token_type", dpop && ex.getRequestHeaders().getFirst("DPoP") != null ? "DPoP" : "Bearer");
        o.put("expires_in", expiresIn);
        if (issueRefresh) {
            String rt = "rt-" + n;
            refresh.add(rt);
            o.put("refresh_token", rt);
        }
        if (!scope.isEmpty()) {
            o.put("scope", scope);
        }
        send(ex, 200, o.toString());
    }

    private void mcp(HttpExchange ex) throws IOException {
        mcpRequests.incrementAndGet();
        byte[] request = ex.getRequestBody().readAllBytes();
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        mcpAuthorization.add(String.valueOf(auth));
        String proof = ex.getRequestHeaders().getFirst("DPoP");
        if (proof != null) {
            mcpProofs.add(proof);
        }
        String scheme = dpop ? "DPoP" : "Bearer";
        String token = auth != null && auth.startsWith(scheme + " ") ? auth.substring(scheme.length() + 1) : null;
        String scope = token == null ? null : access.get(token);
        if (scope == null) {
            challenge(ex, 401, "invalid_token", challengeScope);
            return;
        }
        if (dpop && rsNonce != null) {
            String nonce = proof == null ? null : claim(proof, "nonce");
            if (!rsNonce.equals(nonce)) {
                if (rsNonceHeader) {
                    ex.getResponseHeaders().set("DPoP-Nonce", rsNonce);
                }
                ex.getResponseHeaders().set("WWW-Authenticate", "DPoP error=\"use_dpop_nonce\"");
                send(ex, 401, "{\"error\":\"use_dpop_nonce\"}");
                return;
            }
        }
        String required = requiredScope;
        if (alwaysInsufficient || (required != null && !List.of(scope.split(" ")).contains(required))) {
            challenge(ex, 403, "insufficient_scope", required != null ? required : "mcp:admin");
            return;
        }
        if (!"POST".equals(ex.getRequestMethod())) {
            ex.sendResponseHeaders(405, -1);
            return;
        }
        answer(ex, request);
    }

    /** A minimal legacy MCP server: initialize, tools/list, anything else an empty result, notifications 202. */
    private static void answer(HttpExchange ex, byte[] request) throws IOException {
        JsonNode msg = request.length == 0 ? null : JSON.readTree(request);
        if (msg == null || !msg.has("id") || !msg.has("method")) {
            ex.sendResponseHeaders(202, -1);
            return;
        }
        ObjectNode result = JSON.createObjectNode();
        switch (msg.get("method").asString()) {
            case "initialize" -> {
                result.put("protocolVersion", "2025-11-25");
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "fake-oauth").put("version", "1");
            }
            case "tools/list" -> result.putArray("tools").addObject().put("name", "t")
                    .putObject("inputSchema").put("type", "object");
            default -> {
            }
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", msg.get("id"));
        out.set("result", result);
        send(ex, 200, out.toString());
    }

    private void challenge(HttpExchange ex, int status, String error, String scope) throws IOException {
        StringBuilder h = new StringBuilder(dpop ? "DPoP" : "Bearer").append(" error=\"").append(error).append('"');
        if (scope != null) {
            h.append(", scope=\"").append(scope).append('"');
        }
        if (prmInHeader && (prmPath != null || prmUrl != null)) {
            h.append(", resource_metadata=\"").append(prmUrl != null ? prmUrl : base + prmPath).append('"');
        }
        ex.getResponseHeaders().set("WWW-Authenticate", h.toString());
        send(ex, status, "{\"error\":\"" + error + "\"}");
    }

    /** A claim of a compact JWS's payload (no signature check: the grants tests verify proofs). */
    static String claim(String jws, String name) {
        String[] parts = jws.split("\\.");
        JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        JsonNode v = payload.get(name);
        return v == null ? null : v.asString();
    }

    static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> query(String q) {
        Map<String, String> out = new LinkedHashMap<>();
        if (q == null || q.isEmpty()) {
            return out;
        }
        for (String part : q.split("&")) {
            int eq = part.indexOf('=');
            out.put(URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
