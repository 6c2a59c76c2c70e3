package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.internal.json.JsonSyntax;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The file format of the file token store (version {@value #VERSION}), one JSON object:
 * <pre>{@code
 * {"format": "loom-mcp-token-store", "version": 1,
 *  "tokens": [{"resource", "issuer", "accessToken", "tokenType", "refreshToken", "expiresAt", "scope"}, ...],
 *  "registrations": [{"issuer", "clientId", "clientSecret", "tokenEndpointAuthMethod", "secretExpiresAt"}, ...],
 *  "leases": [{"resource", "issuer", "holder", "fence", "until"}, ...]}
 * }</pre>
 * {@code "leases"} (the refresh leases of the processes sharing the file; added within version 1, written only when
 * there is one, ignored by older readers) keeps the latest grant of each resource and issuer, ended ones too (their
 * fence).
 * Token sets of one resource appear the most recently saved first; optional members are {@code null} or absent;
 * instants are ISO-8601 ({@link Instant#toString()}, so they read back equal). Read strictly (duplicate keys,
 * trailing content, a missing marker or another version are refused). Error messages name the member that is wrong,
 * never a value. Stateless.
 */
final class StoreFile {

    static final String FORMAT = "loom-mcp-token-store";
    static final int VERSION = 1;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private StoreFile() {
    }

    /** The file content for a state (UTF-8 JSON and a newline). */
    static byte[] write(StoreState state) {
        List<Map<String, Object>> tokens = new ArrayList<>();
        state.allTokens().forEach((resource, sets) -> {
            for (TokenSet t : sets) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("resource", resource);
                e.put("issuer", t.issuer());
                e.put("accessToken", t.accessToken());
                e.put("tokenType", t.tokenType());
                e.put("refreshToken", t.refreshToken());
                e.put("expiresAt", t.expiresAt() == null ? null : t.expiresAt().toString());
                e.put("scope", t.scope());
                tokens.add(e);
            }
        });
        List<Map<String, Object>> registrations = new ArrayList<>();
        for (ClientRegistration r : state.allRegistrations()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("issuer", r.issuer());
            e.put("clientId", r.clientId());
            e.put("clientSecret", r.clientSecret());
            e.put("tokenEndpointAuthMethod", r.tokenEndpointAuthMethod());
            e.put("secretExpiresAt", r.secretExpiresAt() == null ? null : r.secretExpiresAt().toString());
            registrations.add(e);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("tokens", tokens);
        root.put("registrations", registrations);
        List<RefreshLease> held = state.allLeases();
        if (!held.isEmpty()) {
            List<Map<String, Object>> leases = new ArrayList<>();
            for (RefreshLease l : held) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("resource", l.resource());
                e.put("issuer", l.issuer());
                e.put("holder", l.holder());
                e.put("fence", l.fence());
                e.put("until", l.until().toString());
                leases.add(e);
            }
            root.put("leases", leases);
        }
        byte[] json = MAPPER.writeValueAsBytes(root);
        byte[] out = java.util.Arrays.copyOf(json, json.length + 1);
        out[json.length] = '\n';
        return out;
    }

    /**
     * Reads file content; an empty content is an empty store.
     *
     * @param bytes the content
     * @return the state
     * @throws IllegalArgumentException saying what is wrong (never quoting the content), if it is not this format
     */
    static StoreState read(byte[] bytes) {
        StoreState state = new StoreState();
        if (bytes.length == 0) {
            return state;
        }
        Object root;
        try {
            root = MAPPER.readValue(bytes, Object.class);
        } catch (JacksonException e) {
            // the parser's message may quote the content: only where it failed is reported
            throw new IllegalArgumentException("it is not valid JSON " + JsonSyntax.where(e));
        }
        if (!(root instanceof Map<?, ?> m) || !FORMAT.equals(m.get("format"))) {
            throw new IllegalArgumentException("it is not a loom-mcp token store (no \"format\": \"" + FORMAT + "\")");
        }
        if (!(m.get("version") instanceof Integer v) || v != VERSION) {
            throw new IllegalArgumentException("it has a version this program cannot read (expected " + VERSION
                    + ")");
        }
        Set<String> seen = new HashSet<>();
        int i = 0;
        for (Map<?, ?> e : objects(m, "tokens")) {
            String where = "tokens[" + i++ + "]";
            String resource = string(e, "resource", where, true);
            TokenSet t = new TokenSet(string(e, "issuer", where, true), string(e, "accessToken", where, true),
                    string(e, "tokenType", where, true), string(e, "refreshToken", where, false),
                    instant(e, "expiresAt", where), string(e, "scope", where, false));
            if (!seen.add(resource.length() + ":" + resource + t.issuer())) {
                throw new IllegalArgumentException(where + " repeats a resource and issuer");
            }
            state.appendTokens(resource, t);
        }
        i = 0;
        Set<String> issuers = new HashSet<>();
        for (Map<?, ?> e : objects(m, "registrations")) {
            String where = "registrations[" + i++ + "]";
            ClientRegistration r = new ClientRegistration(string(e, "issuer", where, true),
                    string(e, "clientId", where, true), string(e, "clientSecret", where, false),
                    string(e, "tokenEndpointAuthMethod", where, true), instant(e, "secretExpiresAt", where));
            if (!issuers.add(r.issuer())) {
                throw new IllegalArgumentException(where + " repeats an issuer");
            }
            state.saveRegistration(r);
        }
        i = 0;
        for (Map<?, ?> e : objects(m, "leases")) {
            String where = "leases[" + i++ + "]";
            if (!(e.get("fence") instanceof Number f) || !(f instanceof Integer || f instanceof Long)) {
                throw new IllegalArgumentException(where + ".fence is missing or not an integer");
            }
            Instant until = instant(e, "until", where);
            if (until == null) {
                throw new IllegalArgumentException(where + ".until is missing");
            }
            state.putLease(new RefreshLease(string(e, "resource", where, true), string(e, "issuer", where, true),
                    string(e, "holder", where, true), f.longValue(), until));
        }
        return state;
    }

    private static List<Map<?, ?>> objects(Map<?, ?> root, String key) {
        Object v = root.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw new IllegalArgumentException("\"" + key + "\" is not an array");
        }
        List<Map<?, ?>> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> e)) {
                throw new IllegalArgumentException(key + "[" + i + "] is not an object");
            }
            out.add(e);
        }
        return out;
    }

    private static String string(Map<?, ?> e, String key, String where, boolean required) {
        Object v = e.get(key);
        if (v == null && !required) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(where + "." + key + (v == null ? " is missing" : " is not a string"));
        }
        return s;
    }

    private static Instant instant(Map<?, ?> e, String key, String where) {
        String s = string(e, key, where, false);
        try {
            return s == null ? null : Instant.parse(s);
        } catch (DateTimeParseException ex) {
            throw new IllegalArgumentException(where + "." + key + " is not an ISO-8601 instant");
        }
    }
}
