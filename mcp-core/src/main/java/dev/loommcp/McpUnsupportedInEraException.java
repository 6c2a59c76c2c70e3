package dev.loommcp;

import java.util.Objects;
import dev.loommcp.config.Era;
import org.jspecify.annotations.Nullable;

/**
 * The operation does not exist in the protocol era of this connection, so nothing was sent: for example
 * {@code ping}, {@code logging/setLevel}, {@code resources/subscribe} and {@code notifications/roots/list_changed}
 * were removed in the modern era (MCP 2026-07-28 changelog). The message names the operation and the era, and what
 * to use instead where there is something. The client stays usable.
 */
public final class McpUnsupportedInEraException extends McpException {

    /** The era in which the operation does not exist. */
    private final Era era;
    /** The method that was refused. */
    private final String method;

    /**
     * Creates the exception.
     *
     * @param method  the refused method, for example {@code ping}
     * @param era     the connection's era
     * @param insteadHint what to use instead, or {@code null}
     */
    public McpUnsupportedInEraException(String method, Era era, @Nullable String insteadHint) {
        super(Objects.requireNonNull(method, "method") + " does not exist in the " + era.name().toLowerCase(
                java.util.Locale.ROOT) + " protocol era this connection speaks" + (insteadHint == null ? ""
                : "; " + insteadHint), null);
        this.era = era;
        this.method = method;
    }

    /**
     * Returns the era of the connection.
     *
     * @return the era
     */
    public Era era() {
        return era;
    }

    /**
     * Returns the method that was refused.
     *
     * @return the method
     */
    public String method() {
        return method;
    }
}
