package dev.loommcp.auth.internal;

import java.net.URI;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * An authorization server's metadata (RFC 8414 / OpenID Connect Discovery), as far as the client uses it, or the
 * 2025-03-26 default endpoints. Immutable.
 *
 * @param issuer                            the issuer identifier, exactly as in the document (or the fallback origin)
 * @param authorizationEndpoint             may be {@code null} (client-credentials-only servers)
 * @param tokenEndpoint                     never {@code null}
 * @param registrationEndpoint              {@code null} when the server has no dynamic registration
 * @param grantTypesSupported               empty when absent
 * @param tokenEndpointAuthMethodsSupported empty when absent
 * @param scopesSupported                   empty when absent
 * @param codeChallengeMethodsSupported     empty when absent
 * @param clientIdMetadataDocumentSupported {@code client_id_metadata_document_supported}
 * @param issParameterSupported             {@code authorization_response_iss_parameter_supported} (RFC 9207)
 * @param dpopSigningAlgValuesSupported     empty when absent
 * @param raw                               the whole document, or {@code null} for the fallback endpoints
 */
public record AuthServerMetadata(String issuer, URI authorizationEndpoint, URI tokenEndpoint,
                                 URI registrationEndpoint, List<String> grantTypesSupported,
                                 List<String> tokenEndpointAuthMethodsSupported, List<String> scopesSupported,
                                 List<String> codeChallengeMethodsSupported,
                                 boolean clientIdMetadataDocumentSupported, boolean issParameterSupported,
                                 List<String> dpopSigningAlgValuesSupported, JsonNode raw) {
}
