package dev.loommcp.spring.boot;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * The checks of the {@code loom.mcp.*} properties that binding does not make: a name that is no property (a typo, a
 * dotted server name without brackets), and values out of range; each failure names the property.
 */
final class PropertyChecks {

    private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("loom.mcp");

    /** The top-level properties, in the uniform form (lower case, no dashes). */
    private static final Set<String> TOP = Set.of("enabled", "configfile", "startuptimeout", "readytimeout",
            "closetimeout", "requesttimeout", "separator");
    private static final Set<String> RESTART = Set.of("maxrestarts", "initialbackoff", "maxbackoff", "stableafter");
    private static final Set<String> SERVER_SCALARS = Set.of("command", "cwd", "url", "transport", "requesttimeout");
    private static final Set<String> SERVER_OAUTH = Set.of("clientid", "clientsecret", "scope");
    private static final String SERVER_KEYS = "command, args, env, cwd, url, transport, headers, request-timeout, "
            + "oauth.client-id, oauth.client-secret, oauth.scope";

    private PropertyChecks() {
    }

    /**
     * Fails on the first {@code loom.mcp.*} name of the environment that is no property.
     *
     * @throws IllegalStateException naming the property, what was wrong and, for a dotted server name, the
     *                               bracket form
     */
    static void requireKnownNames(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.filter(PREFIX::isAncestorOf).stream().forEach(PropertyChecks::requireKnown);
            }
        }
    }

    private static void requireKnown(ConfigurationPropertyName name) {
        List<String> e = new java.util.ArrayList<>();
        for (int i = PREFIX.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
            e.add(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
        }
        boolean known = switch (e.getFirst()) {
            case "restart" -> e.size() == 2 && RESTART.contains(e.get(1));
            case "oauth" -> e.size() == 2 && e.get(1).equals("tokenstore");
            case "tools" -> e.size() == 2 && e.get(1).equals("listtimeout");
            case "servers" -> e.size() >= 3 && knownServerKey(e.subList(2, e.size()));
            default -> e.size() == 1 && TOP.contains(e.getFirst());
        };
        if (known) {
            return;
        }
        if (e.getFirst().equals("servers") && e.size() >= 3) {
            String server = name.getElement(PREFIX.getNumberOfElements() + 1, ConfigurationPropertyName.Form.ORIGINAL);
            // loom.mcp.servers.my.server.command: the server name runs on up to the first key a server has
            for (int k = 3; k < e.size(); k++) {
                if (knownServerKey(e.subList(k, e.size()))) {
                    StringBuilder dotted = new StringBuilder(server);
                    for (int j = PREFIX.getNumberOfElements() + 2; j < PREFIX.getNumberOfElements() + k; j++) {
                        dotted.append('.').append(name.getElement(j, ConfigurationPropertyName.Form.ORIGINAL));
                    }
                    throw new IllegalStateException(name + " is not a loom.mcp property: a server name with a dot is"
                            + " written in brackets, loom.mcp.servers[" + dotted + "]."
                            + rest(name, PREFIX.getNumberOfElements() + k) + " (in YAML: \"[" + dotted + "]\")");
                }
            }
            throw new IllegalStateException(name + " is not a loom.mcp property: a server (loom.mcp.servers."
                    + server + ") takes " + SERVER_KEYS);
        }
        throw new IllegalStateException(name + " is not a loom.mcp property (see docs/frameworks.md or the IDE "
                + "completion of the starter's configuration metadata)");
    }

    /** Whether the elements after a server's name are one of its properties. */
    private static boolean knownServerKey(List<String> e) {
        return switch (e.getFirst()) {
            case "args" -> e.size() <= 2;
            case "env", "headers" -> e.size() >= 2;
            case "oauth" -> e.size() == 2 && SERVER_OAUTH.contains(e.get(1));
            default -> e.size() == 1 && SERVER_SCALARS.contains(e.getFirst());
        };
    }

    private static String rest(ConfigurationPropertyName name, int from) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < name.getNumberOfElements(); i++) {
            if (name.isNumericIndex(i)) {
                b.append('[').append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL)).append(']');
            } else {
                b.append(b.isEmpty() ? "" : ".").append(name.getElement(i, ConfigurationPropertyName.Form.DASHED));
            }
        }
        return b.toString();
    }

    /**
     * Requires a positive duration.
     *
     * @throws IllegalStateException naming the property and the value
     */
    static Duration positive(String property, @Nullable Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalStateException(property + " is " + value + ": it must be a positive duration (30s, 500ms,"
                    + " PT1M)");
        }
        return value;
    }

    /**
     * Requires a duration that is not negative.
     *
     * @throws IllegalStateException naming the property and the value
     */
    static Duration notNegative(String property, @Nullable Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalStateException(property + " is " + value + ": it must not be negative");
        }
        return value;
    }

    /**
     * Runs a builder step, turning its {@link IllegalArgumentException} into a failure that names the property.
     *
     * @throws IllegalStateException naming the property, the value and the builder's message
     */
    static <T> T named(String property, Object value, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            // not chained: the message says it all, and the failure analysis shows the root cause
            throw new IllegalStateException(property + " is " + value + ": " + e.getMessage());
        }
    }
}
