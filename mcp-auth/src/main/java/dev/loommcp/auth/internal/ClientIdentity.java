package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's identity at one authorization server, in this order: pre-registered credentials (the builder's
 * {@code client}), a client-ID metadata document URL when the server sets
 * {@code client_id_metadata_document_supported}, a registration kept in the token store for that issuer, else dynamic
 * client registration (RFC 7591) with {@code application_type}, {@code grant_types} ({@code refresh_token} only when
 * the server offers it), the redirect URI, and afterwards the {@code token_endpoint_auth_method} the server returned.
 * Registrations are kept per issuer, so a server that moves to another authorization server is registered there
 * afresh and no client ID crosses servers. Thread-safe.
 */
final class ClientIdentity {

    /** The JWT-bearer grant type (RFC 7523). */
    static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

    /**
     * A client identity at one server.
     *
     * @param clientId       the client ID
     * @param authentication how it authenticates at the token endpoint
     * @param registration   the dynamic registration it came from, or {@code null}
     */
    record Client(String clientId, ClientAuthentication authentication, ClientRegistration registration) {
        @Override
        public String toString() {
            return "Client[" + clientId + ", " + authentication + "]";
        }
    }

    private final OAuthConfig config;
    private final AuthHttp http;

    ClientIdentity(OAuthConfig config, AuthHttp http) {
        this.config = config;
        this.http = http;
    }

    /**
     * Finds or makes the client identity at {@code as}.
     *
     * @param as          the authorization server
     * @param redirectUri the redirect URI (authorization code), or {@code null} for the other grants
     * @param deadline    the caller's deadline
     * @return the identity
     * @throws McpAuthorizationException if the server offers no way to obtain one, or refused the registration
     * @throws IOException               on a network failure
     * @throws InterruptedException      if interrupted
     */
    Client resolve(AuthServerMetadata as, URI redirectUri, Deadline deadline)
            throws IOException, InterruptedException {
        if (config.clientId() != null) {
            return new Client(config.clientId(), config.clientAuthentication(), null);
        }
        boolean code = "authorization_code".equals(config.grant());
        if (code && config.clientMetadataDocument() != null && as.clientIdMetadataDocumentSupported()) {
            return new Client(config.clientMetadataDocument().toString(), ClientAuthentication.none(), null);
        }
        Optional<ClientRegistration> kept = config.tokenStore().registration(as.issuer());
        if (kept.isPresent()) {
            ClientRegistration r = kept.get();
            if (r.secretExpiresAt() == null || r.secretExpiresAt().isAfter(Instant.now())) {
                return fromRegistration(r);
            }
            config.tokenStore().removeRegistration(r);
        }
        if (as.registrationEndpoint() == null) {
            throw new McpAuthorizationException("the authorization server " + SafeText.quote(as.issuer())
                    + " offers no dynamic client registration"
                    + (as.clientIdMetadataDocumentSupported() ? "" : " nor client ID metadata documents")
                    + "; configure a pre-registered client (McpOAuth.Builder.client)");
        }
        ClientRegistration r = register(as, redirectUri, deadline);
        // put if absent: a process sharing the store that registered first wins, and every process uses its client
        return fromRegistration(config.tokenStore().registerIfAbsent(r));
    }

    /**
     * Forgets a dynamic registration the server no longer accepts (compare-and-delete).
     *
     * @param client the identity
     */
    void forget(Client client) {
        if (client.registration() != null) {
            config.tokenStore().removeRegistration(client.registration());
        }
    }

    /** The body of a registration request (RFC 7591 section 2). */
    ObjectNode registrationRequest(AuthServerMetadata as, URI redirectUri) {
        ObjectNode body = AuthHttp.JSON.createObjectNode();
        body.put("client_name", config.clientName());
        body.put("application_type", config.applicationType());
        List<String> grants = new ArrayList<>();
        switch (config.grant()) {
            case "authorization_code" -> {
                grants.add("authorization_code");
                if (config.offlineAccess() && as.grantTypesSupported().contains("refresh_token")) {
                    grants.add("refresh_token");
                }
            }
            case "jwt_bearer", "enterprise_managed" -> grants.add(JWT_BEARER);
            default -> grants.add(config.grant());
        }
        ArrayNode g = body.putArray("grant_types");
        grants.forEach(g::add);
        if (redirectUri != null) {
            body.putArray("redirect_uris").add(redirectUri.toString());
            body.putArray("response_types").add("code");
        }
        body.put("token_endpoint_auth_method", requestedMethod(as));
        return body;
    }

    /** A public client where the server allows it, else the secret method it lists first. */
    static String requestedMethod(AuthServerMetadata as) {
        List<String> m = as.tokenEndpointAuthMethodsSupported();
        if (m.isEmpty() || m.contains("none")) {
            return "none";
        }
        for (String s : m) {
            if ("client_secret_basic".equals(s) || "client_secret_post".equals(s)) {
                return s;
            }
        }
        return "none";
    }

    private ClientRegistration register(AuthServerMetadata as, URI redirectUri, Deadline deadline)
            throws IOException, InterruptedException {
        URI endpoint = as.registrationEndpoint();
        ObjectNode body = registrationRequest(as, redirectUri);
        AuthHttp.Response r = http.postJson(endpoint, body, Map.of(), deadline);
        JsonNode doc = r.json();
        if (!r.ok()) {
            String error = doc != null && doc.isObject() && doc.get("error") != null && doc.get("error").isString()
                    ? " (" + SafeText.quote(doc.get("error").asString()) + ")" : "";
            throw new McpAuthorizationException("the dynamic client registration at " + AuthHttp.describe(endpoint)
                    + " was refused with HTTP " + r.status() + error);
        }
        if (doc == null || !doc.isObject() || doc.get("client_id") == null || !doc.get("client_id").isString()
                || doc.get("client_id").asString().isEmpty()) {
            throw new McpAuthorizationException("the dynamic client registration at " + AuthHttp.describe(endpoint)
                    + " answered without a client_id");
        }
        String clientId = doc.get("client_id").asString();
        JsonNode s = doc.get("client_secret");
        String secret = s != null && s.isString() && !s.asString().isEmpty() ? s.asString() : null;
        JsonNode m = doc.get("token_endpoint_auth_method");
        String method;
        if (m != null && m.isString() && !m.asString().isEmpty()) {
            method = m.asString();
        } else if (secret == null) {
            method = "none";
        } else {
            String asked = body.get("token_endpoint_auth_method").asString();
            method = "none".equals(asked) ? "client_secret_basic" : asked; // RFC 7591 section 2: the default
        }
        if (!"none".equals(method) && !"client_secret_basic".equals(method) && !"client_secret_post".equals(method)) {
            throw new McpAuthorizationException("the dynamic client registration at " + AuthHttp.describe(endpoint)
                    + " chose the token endpoint authentication " + SafeText.quote(method)
                    + ", which this client cannot use");
        }
        if (!"none".equals(method) && secret == null) {
            throw new McpAuthorizationException("the dynamic client registration at " + AuthHttp.describe(endpoint)
                    + " chose " + method + " but issued no client_secret");
        }
        JsonNode exp = doc.get("client_secret_expires_at");
        Instant expires = exp != null && exp.isNumber() && exp.asLong() > 0 ? Instant.ofEpochSecond(exp.asLong())
                : null;
        return new ClientRegistration(as.issuer(), clientId, secret, method, expires);
    }

    /** The identity a registration gives. */
    static Client fromRegistration(ClientRegistration r) {
        ClientAuthentication auth = switch (r.tokenEndpointAuthMethod()) {
            case "client_secret_basic" -> ClientAuthentication.clientSecretBasic(r.clientSecret());
            case "client_secret_post" -> ClientAuthentication.clientSecretPost(r.clientSecret());
            default -> r.clientSecret() == null ? ClientAuthentication.none()
                    : ClientAuthentication.clientSecret(r.clientSecret());
        };
        return new Client(r.clientId(), auth, r);
    }
}
