package dev.loommcp.auth;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Where {@link McpOAuth} keeps tokens (per protected resource and issuer) and client registrations (per issuer).
 * {@link InMemoryTokenStore} is the default; {@link FileTokenStore} keeps them across processes (the CLI's
 * {@code --token-cache}).
 *
 * <p>Resources are the canonical URIs of MCP servers (RFC 8707: scheme and host in lower case, no fragment); issuers
 * are compared exactly.
 *
 * <p>Implementations must be thread-safe and each operation atomic. The {@code remove...} operations compare and
 * delete: they remove only when the stored value equals the one given, so a client that finds its refresh token
 * rejected never deletes the good credentials another process (or thread) has just stored in its place.
 *
 * <p>Failures of a persistent store are {@link UncheckedIOException}s naming the file, never quoting a secret.
 */
public interface TokenStore {

    /**
     * Returns the tokens of one resource from one issuer.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @return the tokens, or empty
     */
    Optional<TokenSet> tokens(String resource, String issuer);

    /**
     * Returns the issuers holding tokens for a resource, the most recently saved first (so a new process can use a
     * stored token before it has discovered the resource's authorization server).
     *
     * @param resource the resource
     * @return the issuers, possibly empty
     */
    List<String> issuers(String resource);

    /**
     * Stores (replaces) the tokens of a resource; the issuer is {@link TokenSet#issuer()}.
     *
     * @param resource the resource
     * @param tokens   the tokens
     */
    void saveTokens(String resource, TokenSet tokens);

    /**
     * Removes the tokens of a resource from {@code expected.issuer()} if they still equal {@code expected}.
     *
     * @param resource the resource
     * @param expected the tokens the caller found invalid
     * @return whether they were removed
     */
    boolean removeTokens(String resource, TokenSet expected);

    /**
     * Removes every token of a resource, from every issuer (logout).
     *
     * @param resource the resource
     * @return how many token sets were removed
     */
    int removeAllTokens(String resource);

    /**
     * Returns the client registration at an issuer.
     *
     * @param issuer the issuer
     * @return the registration, or empty
     */
    Optional<ClientRegistration> registration(String issuer);

    /**
     * Stores (replaces) the registration at {@link ClientRegistration#issuer()}.
     *
     * @param registration the registration
     */
    void saveRegistration(ClientRegistration registration);

    /**
     * Removes the registration at {@code expected.issuer()} if it still equals {@code expected}.
     *
     * @param expected the registration the caller found invalid
     * @return whether it was removed
     */
    boolean removeRegistration(ClientRegistration expected);
}
