package dev.loommcp.auth.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Scope rules of MCP "Scope Selection Strategy": the challenge's {@code scope}, else every {@code scopes_supported}
 * of the protected resource, else the configured fallback, else none; {@code offline_access} added only when the
 * authorization server lists it; step-up asks for the union of the scopes held and the scopes challenged. Scopes are
 * space-separated strings ({@code null} for none). Stateless.
 */
final class Scopes {

    /** The scope that asks for a refresh token (OpenID Connect Core section 11, MCP SEP-2207). */
    static final String OFFLINE_ACCESS = "offline_access";

    private Scopes() {
    }

    /**
     * Picks the scope of a first authorization.
     *
     * @param challenge the challenge's {@code scope}, or {@code null}
     * @param prm       the protected resource's {@code scopes_supported} (maybe empty)
     * @param fallback  the configured scope, or {@code null}
     * @return the scope, or {@code null} to omit the parameter
     */
    static String select(String challenge, List<String> prm, String fallback) {
        String c = normalize(challenge);
        if (c != null) {
            return c;
        }
        if (prm != null && !prm.isEmpty()) {
            return normalize(String.join(" ", prm));
        }
        return normalize(fallback);
    }

    /**
     * The union of two scopes, in order of first appearance.
     *
     * @param held  the scopes held (or asked before), or {@code null}
     * @param asked the scopes the server asks for, or {@code null}
     * @return the union, or {@code null} when both are empty
     */
    static String union(String held, String asked) {
        Set<String> all = new LinkedHashSet<>();
        all.addAll(split(held));
        all.addAll(split(asked));
        return all.isEmpty() ? null : String.join(" ", all);
    }

    /**
     * Adds {@code offline_access} when wanted and the authorization server lists it in {@code scopes_supported}.
     *
     * @param scope           the scope, or {@code null}
     * @param scopesSupported the authorization server's {@code scopes_supported}
     * @param wanted          whether refresh tokens are wanted
     * @return the scope
     */
    static String withOfflineAccess(String scope, List<String> scopesSupported, boolean wanted) {
        if (!wanted || !scopesSupported.contains(OFFLINE_ACCESS)) {
            return scope;
        }
        return union(scope, OFFLINE_ACCESS);
    }

    /** Whether every scope of {@code wanted} is in {@code held}. */
    static boolean covers(String held, String wanted) {
        return split(held).containsAll(split(wanted));
    }

    static Set<String> split(String scope) {
        Set<String> out = new LinkedHashSet<>();
        if (scope != null) {
            for (String s : scope.trim().split("[ \\t]+")) {
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static String normalize(String scope) {
        Set<String> s = split(scope);
        return s.isEmpty() ? null : String.join(" ", s);
    }
}
