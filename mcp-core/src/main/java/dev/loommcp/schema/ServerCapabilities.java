package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the server supports (MCP 2025-11-25 "ServerCapabilities"; {@code completions} from 2025-03-26, {@code tasks}
 * 2025-11-25 only, {@code extensions} 2026-07-28 only). A {@code null} component is not declared; a method of an
 * undeclared capability answers {@code -32601}.
 *
 * @param experimental non-standard capabilities, by name; or {@code null}
 * @param logging      present (usually {@code {}}) if the server sends log messages; or {@code null}
 * @param completions  present (usually {@code {}}) if the server answers {@code completion/complete}; or {@code null}
 * @param prompts      the prompts capability, or {@code null}
 * @param resources    the resources capability, or {@code null}
 * @param tools        the tools capability, or {@code null}
 * @param tasks        the experimental tasks capability of 2025-11-25 (SPEC-NOTES 11.2), as plain JSON; or
 *                     {@code null}
 * @param extensions   the extensions the server supports, by {@code <prefix>/<name>} (modern era only); or
 *                     {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerCapabilities(@Nullable Map<String, @Nullable Object> experimental,
                                 @Nullable Map<String, @Nullable Object> logging,
                                 @Nullable Map<String, @Nullable Object> completions,
                                 @Nullable ListChangedCapability prompts, @Nullable ResourcesCapability resources,
                                 @Nullable ListChangedCapability tools, @Nullable Map<String, @Nullable Object> tasks,
                                 @Nullable Map<String, @Nullable Object> extensions) {

    /** Creates the record; maps are copied. */
    public ServerCapabilities {
        experimental = Copies.map(experimental);
        logging = Copies.map(logging);
        completions = Copies.map(completions);
        tasks = Copies.map(tasks);
        extensions = Copies.map(extensions);
    }

    /**
     * Returns no capabilities, written as {@code {}}.
     *
     * @return the capabilities
     */
    public static ServerCapabilities of() {
        return new ServerCapabilities(null, null, null, null, null, null, null, null);
    }

    /**
     * Returns whether the server offers tools.
     *
     * @return whether {@code tools} is present
     */
    public boolean hasTools() {
        return tools != null;
    }

    /**
     * Returns whether the server offers resources.
     *
     * @return whether {@code resources} is present
     */
    public boolean hasResources() {
        return resources != null;
    }

    /**
     * Returns whether the server offers prompts.
     *
     * @return whether {@code prompts} is present
     */
    public boolean hasPrompts() {
        return prompts != null;
    }

    /**
     * Returns whether the server sends log messages ({@code logging/setLevel} is allowed).
     *
     * @return whether {@code logging} is present
     */
    public boolean hasLogging() {
        return logging != null;
    }

    /**
     * Returns whether the server answers {@code completion/complete}.
     *
     * @return whether {@code completions} is present
     */
    public boolean hasCompletions() {
        return completions != null;
    }

    /**
     * Returns whether the server supports {@code resources/subscribe}.
     *
     * @return whether {@code resources.subscribe} is {@code true}
     */
    public boolean supportsResourceSubscribe() {
        return resources != null && Boolean.TRUE.equals(resources.subscribe());
    }
}
