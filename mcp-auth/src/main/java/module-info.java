/**
 * loom-mcp auth: the OAuth 2.1 client of MCP "Authorization" for Streamable HTTP ({@link dev.loommcp.auth.McpOAuth},
 * an {@link dev.loommcp.transport.http.AuthorizationProvider}): protected-resource and authorization-server
 * discovery, client identity (pre-registered, client-ID metadata documents, dynamic registration), the
 * authorization-code grant with PKCE, refresh, client credentials, enterprise-managed authorization, workload
 * identity (JWT bearer), DPoP, step-up scopes and token stores.
 */
module dev.loommcp.auth {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;
    requires transitive dev.loommcp.transport.http;
    requires java.net.http;
    requires tools.jackson.databind;
    requires com.nimbusds.jose.jwt;

    exports dev.loommcp.auth;
}
