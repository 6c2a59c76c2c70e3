package dev.loommcp.hosts;

import java.util.List;

/**
 * What {@link McpServers#reload(List)} changed, by server name, each list in the new list's order (removed ones in
 * the old order).
 *
 * @param added     servers that are new (idle until first use)
 * @param removed   servers that are gone (closed)
 * @param changed   servers whose configuration changed (the old one closed, a new one idle under the same name)
 * @param unchanged servers kept as they were (still running, same process or session)
 */
public record ReloadResult(List<String> added, List<String> removed, List<String> changed, List<String> unchanged) {

    /**
     * Copies the lists.
     *
     * @throws NullPointerException if a list or a name is {@code null}
     */
    public ReloadResult {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
        unchanged = List.copyOf(unchanged);
    }
}
