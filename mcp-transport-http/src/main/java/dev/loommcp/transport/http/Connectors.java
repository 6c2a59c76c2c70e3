package dev.loommcp.transport.http;

import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the {@link HttpConnector} for an endpoint scheme other than http(s) with {@link ServiceLoader}: first the
 * loader of the thread's context class loader (the module layer of the caller, the class path), then this module's
 * own loader. Stateless; thread-safe.
 */
final class Connectors {

    private Connectors() {
    }

    /**
     * Returns the connector serving {@code scheme}.
     *
     * @throws IllegalArgumentException if none does; for {@code unix} the message names the module to add
     */
    static HttpConnector find(String scheme) {
        String wanted = scheme.toLowerCase(Locale.ROOT);
        HttpConnector found = find(wanted, ServiceLoader.load(HttpConnector.class));
        if (found == null) {
            found = find(wanted, ServiceLoader.load(HttpConnector.class, HttpConnector.class.getClassLoader()));
        }
        if (found != null) {
            return found;
        }
        if (wanted.equals("vsock")) {
            throw new IllegalArgumentException("vsock: endpoints are not supported: the JDK has no API for AF_VSOCK "
                    + "sockets");
        }
        if (wanted.equals("unix")) {
            throw new IllegalArgumentException("unix: endpoints need the module mcp-transport-unix "
                    + "(dev.loommcp.transport.unix) on the class or module path");
        }
        throw new IllegalArgumentException("the endpoint must be an absolute http or https URI (no connector "
                + "serves " + wanted + ": endpoints)");
    }

    private static HttpConnector find(String scheme, ServiceLoader<HttpConnector> loader) {
        try {
            for (HttpConnector c : loader) {
                if (scheme.equals(c.scheme())) {
                    return c;
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("cannot load the HTTP connectors for " + scheme + ": endpoints ("
                    + e.getMessage() + ")", e);
        }
        return null;
    }
}
