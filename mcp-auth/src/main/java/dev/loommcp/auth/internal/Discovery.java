package dev.loommcp.auth.internal;

import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Discovery of MCP authorization: the protected-resource metadata (RFC 9728) with its {@code resource} check, the
 * authorization server's metadata (RFC 8414 / OpenID Connect Discovery) with the exact {@code issuer} check, and the
 * 2025-03-26 fallbacks for servers without protected-resource metadata (the metadata at the server's origin, else the
 * default endpoints {@code /authorize}, {@code /token}, {@code /register}). Thread-safe (stateless beyond the HTTP
 * client).
 */
final class Discovery {

    /**
     * Protected-resource metadata, as far as the client uses it.
     *
     * @param resource             the {@code resource} value, exactly as sent (what the {@code resource} parameter
     *                             of authorization and token requests carries)
     * @param authorizationServers the issuers, in the document's order, exactly as sent; not empty
     * @param scopesSupported      empty when absent
     * @param url                  where the document was found
     */
    record ProtectedResource(String resource, List<String> authorizationServers, List<String> scopesSupported,
                             URI url) {
    }

    private final AuthHttp http;

    Discovery(AuthHttp http) {
        this.http = http;
    }

    /**
     * Finds the protected-resource metadata of an MCP server: the challenge's URL, then the path-based and the root
     * well-known URL; a URL answering other than 2xx with a JSON object is skipped.
     *
     * @param endpoint         the MCP endpoint
     * @param resourceMetadata the challenge's {@code resource_metadata}, or {@code null}
     * @param deadline         the caller's deadline
     * @param notes            receives a note for each URL that answered a redirect (not followed), for the error
     *                         a failing authorization ends with
     * @return the metadata, or {@code null} when no URL had any (a 2025-03-26 server)
     * @throws McpAuthorizationException if a document was found but is unusable, or its {@code resource} is not this
     *                                   server
     * @throws IOException               on a network failure
     * @throws InterruptedException      if interrupted
     */
    ProtectedResource protectedResource(URI endpoint, URI resourceMetadata, Deadline deadline, List<String> notes)
            throws IOException, InterruptedException {
        for (URI url : Urls.protectedResourceMetadataUrls(endpoint, resourceMetadata)) {
            AuthHttp.Response r = http.get(url, Map.of(), deadline);
            noteRedirect(r, url, notes);
            JsonNode doc = r.ok() ? r.json() : null;
            if (doc == null || !doc.isObject()) {
                continue; // not there (or a page that is no metadata document)
            }
            return parseProtectedResource(doc, url, endpoint);
        }
        return null;
    }

    /**
     * Reads and checks a protected-resource metadata document.
     *
     * @throws McpAuthorizationException if it is not a JSON object with a string {@code resource} naming this server
     *                                   and a non-empty {@code authorization_servers}
     */
    static ProtectedResource parseProtectedResource(JsonNode doc, URI url, URI endpoint) {
        String where = AuthHttp.describe(url);
        if (doc == null || !doc.isObject()) {
            throw new McpAuthorizationException("the protected resource metadata at " + where
                    + " is not a JSON object");
        }
        JsonNode res = doc.get("resource");
        if (res == null || !res.isString() || res.asString().isBlank()) {
            throw new McpAuthorizationException("the protected resource metadata at " + where + " has no resource");
        }
        String resource = res.asString();
        if (!Urls.resourceMatches(resource, endpoint)) {
            throw new McpAuthorizationException("the protected resource metadata at " + where + " is for "
                    + SafeText.quote(resource) + ", not for the server " + AuthHttp.describe(endpoint) + "; refused");
        }
        List<String> servers = strings(doc.get("authorization_servers"));
        if (servers.isEmpty()) {
            throw new McpAuthorizationException("the protected resource metadata at " + where
                    + " names no authorization server");
        }
        return new ProtectedResource(resource, servers, strings(doc.get("scopes_supported")), url);
    }

    /**
     * Finds an authorization server's metadata in the URL order of {@link Urls#authorizationServerMetadataUrls}.
     *
     * @param issuer   the issuer identifier, exactly as the protected resource named it
     * @param deadline the caller's deadline
     * @param notes    receives a note for each URL that answered a redirect (not followed)
     * @return the metadata, or {@code null} when no URL had a document (2xx with a JSON object)
     * @throws McpAuthorizationException if a document was found but its {@code issuer} differs from {@code issuer}
     *                                   (compared exactly), or it is unusable
     * @throws IOException               on a network failure
     * @throws InterruptedException      if interrupted
     */
    AuthServerMetadata authorizationServer(String issuer, Deadline deadline, List<String> notes) throws IOException,
            InterruptedException {
        URI issuerUri;
        try {
            issuerUri = Urls.httpUrl(issuer, "the authorization server " + SafeText.quote(issuer));
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException(e.getMessage());
        }
        for (URI url : Urls.authorizationServerMetadataUrls(issuerUri)) {
            AuthHttp.Response r = http.get(url, Map.of(), deadline);
            noteRedirect(r, url, notes);
            JsonNode doc = r.ok() ? r.json() : null;
            if (doc != null && doc.isObject()) {
                return parseAuthServer(doc, url, issuer);
            }
        }
        return null;
    }

    /**
     * The 2025-03-26 fallback for a server without protected-resource metadata: the authorization server is the
     * MCP server's origin; its RFC 8414 metadata at the origin's root, else the default endpoints.
     *
     * @param endpoint the MCP endpoint
     * @param deadline the caller's deadline
     * @param notes    receives a note when the metadata URL answered a redirect (not followed)
     * @return the metadata (never {@code null})
     * @throws McpAuthorizationException if a document was found but is unusable or names another issuer
     * @throws IOException               on a network failure
     * @throws InterruptedException      if interrupted
     */
    AuthServerMetadata legacy(URI endpoint, Deadline deadline, List<String> notes)
            throws IOException, InterruptedException {
        String origin = Urls.origin(endpoint);
        URI url = URI.create(origin + Urls.AS_WELL_KNOWN);
        AuthHttp.Response r = http.get(url, Map.of(), deadline);
        noteRedirect(r, url, notes);
        JsonNode doc = r.ok() ? r.json() : null;
        if (doc != null && doc.isObject()) {
            return parseAuthServer(doc, url, origin);
        }
        return defaultEndpoints(origin);
    }

    /**
     * Notes a metadata URL that answered a redirect: discovery never follows one (a 3xx is "no document here"), and
     * when the authorization then fails, its error says so rather than leaving the user with a later fallback's
     * complaint alone.
     */
    private static void noteRedirect(AuthHttp.Response r, URI url, List<String> notes) {
        if (r.status() >= 300 && r.status() < 400) {
            notes.add(AuthHttp.describe(url) + " answered HTTP " + r.status() + ", a redirect, which is not followed");
        }
    }

    /** The 2025-03-26 default endpoints of an origin. */
    static AuthServerMetadata defaultEndpoints(String origin) {
        return new AuthServerMetadata(origin, URI.create(origin + "/authorize"), URI.create(origin + "/token"),
                URI.create(origin + "/register"), List.of(), List.of(), List.of(), List.of(), false, false,
                List.of(), null);
    }

    /**
     * Reads and checks an authorization server metadata document.
     *
     * @param doc      the document
     * @param url      where it was found
     * @param expected the issuer it must name, exactly
     * @throws McpAuthorizationException if it is not a JSON object, its {@code issuer} is not {@code expected}, or
     *                                   it has no usable {@code token_endpoint}
     */
    static AuthServerMetadata parseAuthServer(JsonNode doc, URI url, String expected) {
        String where = AuthHttp.describe(url);
        if (doc == null || !doc.isObject()) {
            throw new McpAuthorizationException("the authorization server metadata at " + where
                    + " is not a JSON object");
        }
        JsonNode iss = doc.get("issuer");
        String issuer = iss != null && iss.isString() ? iss.asString() : null;
        if (!expected.equals(issuer)) {
            throw new McpAuthorizationException("the authorization server metadata at " + where + " names the issuer "
                    + (issuer == null ? "(none)" : SafeText.quote(issuer)) + ", not " + SafeText.quote(expected)
                    + " as asked; refused (RFC 8414 section 3.3)");
        }
        URI token = endpoint(doc, "token_endpoint", where);
        if (token == null) {
            throw new McpAuthorizationException("the authorization server metadata at " + where
                    + " has no token_endpoint");
        }
        return new AuthServerMetadata(issuer, endpoint(doc, "authorization_endpoint", where), token,
                endpoint(doc, "registration_endpoint", where), strings(doc.get("grant_types_supported")),
                strings(doc.get("token_endpoint_auth_methods_supported")), strings(doc.get("scopes_supported")),
                strings(doc.get("code_challenge_methods_supported")),
                bool(doc.get("client_id_metadata_document_supported")),
                bool(doc.get("authorization_response_iss_parameter_supported")),
                strings(doc.get("dpop_signing_alg_values_supported")), doc);
    }

    private static URI endpoint(JsonNode doc, String name, String where) {
        JsonNode n = doc.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isString()) {
            throw new McpAuthorizationException("the authorization server metadata at " + where + " has a "
                    + name + " that is not a string");
        }
        try {
            return Urls.httpUrl(n.asString(), "its " + name);
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException("the authorization server metadata at " + where + ": "
                    + e.getMessage());
        }
    }

    private static boolean bool(JsonNode n) {
        return n != null && n.isBoolean() && n.booleanValue();
    }

    /** The strings of a JSON array (other elements skipped); empty for anything else. */
    static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null && n.isArray()) {
            for (JsonNode e : n) {
                if (e.isString()) {
                    out.add(e.asString());
                }
            }
        }
        return List.copyOf(out);
    }
}
