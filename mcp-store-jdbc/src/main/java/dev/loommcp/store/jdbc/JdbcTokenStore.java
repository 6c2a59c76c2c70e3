package dev.loommcp.store.jdbc;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.TokenStore;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link TokenStore} in a database the replicas of a backend share (tables {@code mcp_oauth_tokens},
 * {@code mcp_oauth_registrations}, {@code mcp_oauth_leases}: {@link JdbcSchema}), on the application's
 * {@link DataSource} (its pool). Every operation of {@link TokenStore} is one short transaction, atomic across
 * machines: compare-and-set and compare-and-delete lock the row ({@code SELECT ... FOR UPDATE}), registrations are
 * put if absent ({@code INSERT ... ON CONFLICT DO NOTHING}), and the refresh lease is a lease row whose expiry and
 * fence come from the database ({@code now()}, {@code fence + 1}), so that exactly one replica at a time presents a
 * refresh token; {@link dev.loommcp.auth.McpOAuth} waits for the lease's holder's tokens within each request's
 * deadline.
 *
 * <p>Secrets at rest: a token set (access and refresh token, type, expiry, scope) and a registration (with its client
 * secret) are sealed with AES-GCM under the application's key ({@link Builder#encryptionKey}); the row's key is the
 * associated data. The database sees principals, resources and issuers in clear, never a token or secret.
 *
 * <p>Key rotation and unreadable rows: values are sealed under the current key ({@link Builder#encryptionKey});
 * retired keys ({@link Builder#retiredKey}) still open the rows sealed under their ids, so that replicas of a rolling
 * deploy read each other's rows. A row that opens under none of the store's keys (sealed under an unknown key id,
 * another key under a known id, or changed bytes) is treated as absent: {@link #tokens}, {@link #registration} and
 * the compare-and-set operations see no row, a WARNING names the resource or issuer and the key ids (never a value),
 * and the next save (authorizing or registering again) replaces it. So a replica with a wrong key cannot lock the
 * fleet out, only make it authorize again; its WARNINGs name the key ids.
 *
 * <p>Timeouts: every statement runs under PostgreSQL's {@code statement_timeout} and {@code lock_timeout}
 * ({@link Builder#statementTimeout}, default 10 s; set per transaction). No connection is kept between operations, and
 * none waits for a notification: a virtual thread blocks in the driver only for one short statement (the driver
 * may pin its carrier during a socket read on Java 21: give the pool a bounded size).
 *
 * <p>Failures: {@link UncheckedIOException} naming the operation and the SQLState (never a value, a token or the
 * driver's message). Thread-safe. Tested on PostgreSQL 15; the SQL is PostgreSQL's.
 */
public final class JdbcTokenStore implements TokenStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final System.Logger LOG = System.getLogger(JdbcTokenStore.class.getName());

    private final Sql sql;
    private final SecretBox box;
    private final String principal;

    private JdbcTokenStore(Sql sql, SecretBox box, String principal) {
        this.sql = sql;
        this.box = box;
        this.principal = principal;
    }

    /**
     * Starts a builder.
     *
     * @param dataSource the application's data source (a pool), with the schema applied ({@link JdbcSchema})
     * @return the builder
     */
    public static Builder newBuilder(DataSource dataSource) {
        return new Builder(Objects.requireNonNull(dataSource, "dataSource"));
    }

    /** Builds a {@link JdbcTokenStore}. Not thread-safe. */
    public static final class Builder {
        private final DataSource dataSource;
        private @Nullable String keyId;
        private @Nullable SecretKey key;
        private final Map<String, SecretKey> retired = new LinkedHashMap<>();
        private Duration timeout = Duration.ofSeconds(10);

        private Builder(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        /**
         * The key that seals tokens and client secrets (required): an AES key of 128, 192 or 256 bits that every
         * replica shares, and its id, stored with each row (so that a row sealed under another key is named, not
         * misread). Keep the key out of the database.
         *
         * @param keyId an id for the key, not blank (say {@code "2026-12"})
         * @param key   the key ({@code new SecretKeySpec(bytes, "AES")})
         * @return this builder
         * @throws IllegalArgumentException if the id is blank or the key is not such an AES key
         */
        public Builder encryptionKey(String keyId, SecretKey key) {
            SecretBox.check(keyId, key);
            this.keyId = keyId;
            this.key = key;
            return this;
        }

        /**
         * Adds a retired key: rows sealed under its id are still read, and are sealed under the current key
         * ({@link #encryptionKey}) when next written. For key rotation during a rolling deploy: first give every
         * replica the new key as a retired key (they read what the first replica on the new key writes), then make it
         * the current key and the old one retired; drop the old key once no row has its id
         * ({@code select count(*) from mcp_oauth_tokens where key_id = 'old'}, same for {@code mcp_oauth_registrations}).
         *
         * @param keyId the id the rows name, not blank and not the current key's
         * @param key   the key
         * @return this builder
         * @throws IllegalArgumentException if the id is blank or the key is not an AES key of 128, 192 or 256 bits
         *                                  (the id repeating the current key's is refused by {@link #build})
         */
        public Builder retiredKey(String keyId, SecretKey key) {
            SecretBox.check(keyId, key);
            retired.put(keyId, key);
            return this;
        }

        /**
         * How long one statement may take before the database cancels it (default 10 s); a lock wait is cancelled
         * after three quarters of it, and the client gives up waiting for an answer (a stalled database or network)
         * 5 s after it.
         *
         * @param timeout the timeout, at least 1 ms and at most about 24.8 days (PostgreSQL's limit)
         * @return this builder
         * @throws IllegalArgumentException if shorter than 1 ms or longer than PostgreSQL's limit
         */
        public Builder statementTimeout(Duration timeout) {
            this.timeout = Sql.checkTimeout(timeout);
            return this;
        }

        /**
         * Builds the store (no database access yet).
         *
         * @return the store
         * @throws IllegalStateException    if no {@link #encryptionKey} was given
         * @throws IllegalArgumentException if a retired key has the current key's id
         */
        public JdbcTokenStore build() {
            if (keyId == null || key == null) {
                throw new IllegalStateException("a JdbcTokenStore needs an encryption key: "
                        + "JdbcTokenStore.newBuilder(dataSource).encryptionKey(keyId, key)");
            }
            return new JdbcTokenStore(new Sql(dataSource, timeout, "the JDBC token store"),
                    new SecretBox(keyId, key, retired), "");
        }
    }

    // ------------------------------------------------------------------------------------------------ tokens

    private String aad(String resource, String issuer) {
        return "tokens\u0000" + principal + "\u0000" + resource + "\u0000" + issuer;
    }

    private byte[] sealTokens(String resource, TokenSet t) {
        Map<String, @Nullable Object> m = new LinkedHashMap<>();
        m.put("accessToken", t.accessToken());
        m.put("tokenType", t.tokenType());
        m.put("refreshToken", t.refreshToken());
        m.put("expiresAt", t.expiresAt() == null ? null : t.expiresAt().toString());
        m.put("scope", t.scope());
        return box.seal(JSON.writeValueAsBytes(m), aad(resource, t.issuer()));
    }

    /** The stored set, or null (with a WARNING) when the row opens under none of the keys. */
    private @Nullable TokenSet openTokens(String resource, String issuer, String keyId, byte[] sealed) {
        String what = "the stored token set of " + SecretBox.SafeId.quote(resource) + " (issuer "
                + SecretBox.SafeId.quote(issuer) + (principal.isEmpty() ? "" : ", principal "
                + SecretBox.SafeId.quote(principal)) + ")";
        return opened(keyId, sealed, aad(resource, issuer), what, m -> {
            Object exp = m.get("expiresAt");
            return new TokenSet(issuer, (String) m.get("accessToken"), (String) m.get("tokenType"),
                    (String) m.get("refreshToken"), exp == null ? null : Instant.parse((String) exp),
                    (String) m.get("scope"));
        });
    }

    /** Opens a sealed JSON object and makes its value; null (with a WARNING) when it cannot be read. */
    private <T> @Nullable T opened(String keyId, byte[] sealed, String aad, String what,
                                   java.util.function.Function<Map<?, ?>, T> make) {
        try {
            byte[] plain = box.open(keyId, sealed, aad, what);
            return make.apply(JSON.readValue(new String(plain, StandardCharsets.UTF_8), Map.class));
        } catch (IllegalStateException | IllegalArgumentException | ClassCastException | NullPointerException
                 | tools.jackson.core.JacksonException | java.time.DateTimeException e) {
            // never the cause: a parse failure may quote the opened secret
            String why = e instanceof IllegalStateException ? e.getMessage()
                    : what + " opened but is not in this version's format (" + e.getClass().getSimpleName() + ")";
            LOG.log(System.Logger.Level.WARNING, "the JDBC token store treats a row as absent: " + why + "; the"
                    + " next save replaces it (every replica needs the current key; a rotated one as a retired key)");
            return null;
        }
    }

    /** The stored set of one key, locked for update when {@code lock}; null when none. */
    private @Nullable TokenSet read(Connection c, String resource, String issuer, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select key_id, sealed from mcp_oauth_tokens"
                + " where principal = ? and resource = ? and issuer = ?" + (lock ? " for update" : ""))) {
            ps.setString(1, principal);
            ps.setString(2, resource);
            ps.setString(3, issuer);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? openTokens(resource, issuer, rs.getString(1), rs.getBytes(2)) : null;
            }
        }
    }

    private void write(Connection c, String resource, TokenSet t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into mcp_oauth_tokens"
                + " (principal, resource, issuer, key_id, sealed, saved_at) values (?, ?, ?, ?, ?, clock_timestamp())"
                + " on conflict (principal, resource, issuer) do update set key_id = excluded.key_id,"
                + " sealed = excluded.sealed, version = mcp_oauth_tokens.version + 1, saved_at = excluded.saved_at")) {
            ps.setString(1, principal);
            ps.setString(2, resource);
            ps.setString(3, t.issuer());
            ps.setString(4, box.keyId());
            ps.setBytes(5, sealTokens(resource, t));
            ps.executeUpdate();
        }
    }

    private int delete(Connection c, String resource, @Nullable String issuer) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("delete from mcp_oauth_tokens where principal = ?"
                + " and resource = ?" + (issuer == null ? "" : " and issuer = ?"))) {
            ps.setString(1, principal);
            ps.setString(2, resource);
            if (issuer != null) {
                ps.setString(3, issuer);
            }
            return ps.executeUpdate();
        }
    }

    @Override
    public Optional<TokenSet> tokens(String resource, String issuer) {
        Sql.key(resource, "the resource");
        Sql.key(issuer, "the issuer");
        return Optional.ofNullable(sql.tx("read the tokens", c -> read(c, resource, issuer, false)));
    }

    @Override
    public List<String> issuers(String resource) {
        Sql.key(resource, "the resource");
        return sql.tx("list the issuers", c -> {
            try (PreparedStatement ps = c.prepareStatement("select issuer from mcp_oauth_tokens"
                    + " where principal = ? and resource = ? order by saved_at desc, version desc, issuer")) {
                ps.setString(1, principal);
                ps.setString(2, resource);
                List<String> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
                return List.copyOf(out);
            }
        });
    }

    @Override
    public void saveTokens(String resource, TokenSet tokens) {
        Sql.key(resource, "the resource");
        Sql.key(tokens.issuer(), "the issuer");
        sql.tx("save the tokens", c -> {
            write(c, resource, tokens);
            return null;
        });
    }

    @Override
    public boolean removeTokens(String resource, TokenSet expected) {
        Sql.key(resource, "the resource");
        Objects.requireNonNull(expected, "expected");
        return sql.tx("remove the tokens", c -> expected.equals(read(c, resource, expected.issuer(), true))
                && delete(c, resource, expected.issuer()) == 1);
    }

    @Override
    public int removeAllTokens(String resource) {
        Sql.key(resource, "the resource");
        return sql.tx("remove the tokens", c -> delete(c, resource, null));
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one transaction, with the row locked.
     */
    @Override
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        Sql.key(resource, "the resource");
        requireSameIssuer(expected, fresh);
        return sql.tx("replace the tokens", c -> cas(c, resource, expected, fresh));
    }

    private boolean cas(Connection c, String resource, TokenSet expected, TokenSet fresh) throws SQLException {
        if (!expected.equals(read(c, resource, expected.issuer(), true))) {
            return false;
        }
        write(c, resource, fresh);
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one transaction: the lease row is locked and must still carry the lease's holder and fence.
     */
    @Override
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        Objects.requireNonNull(lease, "lease");
        requireSameIssuer(expected, fresh);
        if (!lease.issuer().equals(expected.issuer())) {
            throw new IllegalArgumentException("the tokens are from another issuer than the lease's");
        }
        return sql.tx("replace the tokens", c -> {
            try (PreparedStatement ps = c.prepareStatement("select 1 from mcp_oauth_leases where principal = ?"
                    + " and resource = ? and issuer = ? and holder = ? and fence = ? and lease_until is not null"
                    + " for update")) { // a released lease no longer writes
                ps.setString(1, principal);
                ps.setString(2, lease.resource());
                ps.setString(3, lease.issuer());
                ps.setString(4, lease.holder());
                ps.setLong(5, lease.fence());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return false; // granted to another holder since: fenced off
                    }
                }
            }
            return cas(c, lease.resource(), expected, fresh);
        });
    }

    private static void requireSameIssuer(TokenSet expected, TokenSet fresh) {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(fresh, "fresh");
        if (!expected.issuer().equals(fresh.issuer())) {
            throw new IllegalArgumentException("the fresh tokens are from another issuer than the expected ones");
        }
    }

    // ------------------------------------------------------------------------------------------------ leases

    /**
     * {@inheritDoc}
     *
     * <p>A lease row per key; the expiry is the database's {@code now()} plus {@code length}, the fence the row's
     * count of grants. Excludes every replica using the database.
     */
    @Override
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder, Duration length) {
        Sql.key(resource, "the resource");
        Sql.key(issuer, "the issuer");
        Sql.id(holder, "the holder");
        long ms = Sql.leaseMillis(length);
        return sql.tx("take the refresh lease", c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into mcp_oauth_leases (principal, resource,"
                    + " issuer) values (?, ?, ?) on conflict do nothing")) {
                ps.setString(1, principal);
                ps.setString(2, resource);
                ps.setString(3, issuer);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("update mcp_oauth_leases set holder = ?,"
                    + " fence = fence + 1, lease_until = now() + ? * interval '1 millisecond'"
                    + " where principal = ? and resource = ? and issuer = ?"
                    + " and (lease_until is null or lease_until <= now() or holder = ?)"
                    + " returning fence, lease_until")) {
                ps.setString(1, holder);
                ps.setLong(2, ms);
                ps.setString(3, principal);
                ps.setString(4, resource);
                ps.setString(5, issuer);
                ps.setString(6, holder);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.<RefreshLease>empty();
                    }
                    return Optional.of(new RefreshLease(resource, issuer, holder, rs.getLong(1),
                            rs.getTimestamp(2).toInstant()));
                }
            }
        });
    }

    @Override
    public boolean releaseRefresh(RefreshLease lease) {
        Objects.requireNonNull(lease, "lease");
        return sql.tx("release the refresh lease", c -> {
            try (PreparedStatement ps = c.prepareStatement("update mcp_oauth_leases set lease_until = null"
                    + " where principal = ? and resource = ? and issuer = ? and holder = ? and fence = ?"
                    + " and lease_until is not null")) { // released once: a second release is false
                ps.setString(1, principal);
                ps.setString(2, lease.resource());
                ps.setString(3, lease.issuer());
                ps.setString(4, lease.holder());
                ps.setLong(5, lease.fence());
                return ps.executeUpdate() == 1;
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ registrations

    private static String aad(String issuer) {
        return "registration\u0000" + issuer;
    }

    private byte[] sealRegistration(ClientRegistration r) {
        Map<String, @Nullable Object> m = new LinkedHashMap<>();
        m.put("clientId", r.clientId());
        m.put("clientSecret", r.clientSecret());
        m.put("tokenEndpointAuthMethod", r.tokenEndpointAuthMethod());
        m.put("secretExpiresAt", r.secretExpiresAt() == null ? null : r.secretExpiresAt().toString());
        return box.seal(JSON.writeValueAsBytes(m), aad(r.issuer()));
    }

    private @Nullable ClientRegistration readRegistration(Connection c, String issuer, boolean lock)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select key_id, sealed from mcp_oauth_registrations"
                + " where issuer = ?" + (lock ? " for update" : ""))) {
            ps.setString(1, issuer);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return opened(rs.getString(1), rs.getBytes(2), aad(issuer), "the stored client registration at "
                        + SecretBox.SafeId.quote(issuer), m -> {
                            Object exp = m.get("secretExpiresAt");
                            return new ClientRegistration(issuer, (String) m.get("clientId"),
                                    (String) m.get("clientSecret"), (String) m.get("tokenEndpointAuthMethod"),
                                    exp == null ? null : Instant.parse((String) exp));
                        });
            }
        }
    }

    private int insertRegistration(Connection c, ClientRegistration r, boolean replace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into mcp_oauth_registrations (issuer, key_id, sealed)"
                + " values (?, ?, ?) on conflict (issuer) do " + (replace
                ? "update set key_id = excluded.key_id, sealed = excluded.sealed, saved_at = now()" : "nothing"))) {
            ps.setString(1, r.issuer());
            ps.setString(2, box.keyId());
            ps.setBytes(3, sealRegistration(r));
            return ps.executeUpdate();
        }
    }

    @Override
    public Optional<ClientRegistration> registration(String issuer) {
        Sql.key(issuer, "the issuer");
        return Optional.ofNullable(sql.tx("read the registration", c -> readRegistration(c, issuer, false)));
    }

    @Override
    public void saveRegistration(ClientRegistration registration) {
        Sql.key(registration.issuer(), "the issuer");
        sql.tx("save the registration", c -> insertRegistration(c, registration, true));
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code INSERT ... ON CONFLICT DO NOTHING}, then the row is read in the same transaction.
     */
    @Override
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        Sql.key(registration.issuer(), "the issuer");
        return sql.tx("save the registration", c -> {
            if (insertRegistration(c, registration, false) == 1) {
                return registration;
            }
            ClientRegistration held = readRegistration(c, registration.issuer(), true);
            if (held == null) { // unreadable under this store's keys (or removed meanwhile): ours replaces it
                insertRegistration(c, registration, true);
                return registration;
            }
            return held;
        });
    }

    @Override
    public boolean removeRegistration(ClientRegistration expected) {
        Sql.key(expected.issuer(), "the issuer");
        return sql.tx("remove the registration", c -> {
            if (!expected.equals(readRegistration(c, expected.issuer(), true))) {
                return false;
            }
            try (PreparedStatement ps = c.prepareStatement("delete from mcp_oauth_registrations where issuer = ?")) {
                ps.setString(1, expected.issuer());
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>The principal is a column of the tokens and leases tables (any string; the empty string is this store's
     * own view).
     */
    @Override
    public TokenStore forPrincipal(String principal) {
        Sql.key(principal, "the principal");
        return principal.equals(this.principal) ? this : new JdbcTokenStore(sql, box, principal);
    }

    @Override
    public String toString() {
        return "JdbcTokenStore[keyId=" + SecretBox.SafeId.quote(box.keyId()) + (principal.isEmpty() ? ""
                : ", principal " + SecretBox.SafeId.quote(principal)) + "]";
    }
}
