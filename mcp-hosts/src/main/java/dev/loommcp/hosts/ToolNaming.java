package dev.loommcp.hosts;

import dev.loommcp.schema.Tool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The namespaced names of a registry's tools ({@code server + separator + tool}, made to fit a model by
 * {@link ToolNames}): computed again only when a server's readiness or tool list changed since the last time (each
 * list is an immutable object, replaced on a refresh), else the last result is reused. Moved out of
 * {@link McpServers}, which keeps the lookups and the calls. Thread-safe: the last result is one volatile immutable
 * record; two threads computing at once compute the same names.
 */
final class ToolNaming {

    private final String separator;
    private volatile Naming last = new Naming(List.of(), List.of(), Map.of());

    /**
     * The tools of the ready servers named for a model, and the lookup by either name.
     *
     * @param key    what they were computed from: each ready server and its tool list, in order
     * @param tools  the tools, in server order
     * @param byName the tools by the name a model was given and by their full name
     */
    record Naming(List<Object> key, List<HostedTool> tools, Map<String, HostedTool> byName) {
    }

    ToolNaming(String separator) {
        this.separator = separator;
    }

    /**
     * Returns the names of the ready servers' tools.
     *
     * @param servers the registry's servers, in order
     * @return the names, reused when nothing changed
     */
    Naming of(Collection<HostedServer> servers) {
        List<Object> key = new ArrayList<>();
        for (HostedServer s : servers) {
            if (s.state() == ServerState.READY) {
                key.add(s);
                key.add(s.listedTools());
            }
        }
        Naming previous = last;
        if (previous.key().size() == key.size()) {
            boolean same = true;
            for (int i = 0; i < key.size() && same; i++) {
                same = previous.key().get(i) == key.get(i);
            }
            if (same) {
                return previous;
            }
        }
        List<String> fullNames = new ArrayList<>();
        List<HostedTool> unnamed = new ArrayList<>();
        for (int i = 0; i < key.size(); i += 2) {
            HostedServer s = (HostedServer) key.get(i);
            @SuppressWarnings("unchecked")
            List<Tool> listed = (List<Tool>) key.get(i + 1);
            for (Tool t : listed) {
                String full = s.serverName() + separator + t.name();
                if (!fullNames.contains(full)) { // a server listing one name twice: its first
                    fullNames.add(full);
                    unnamed.add(new HostedTool(full, s.serverName(), t, full));
                }
            }
        }
        Map<String, String> assigned = ToolNames.assign(fullNames);
        List<HostedTool> tools = new ArrayList<>();
        Map<String, HostedTool> byName = new HashMap<>();
        for (HostedTool t : unnamed) {
            HostedTool named = new HostedTool(assigned.get(t.fullName()), t.server(), t.tool(), t.fullName());
            tools.add(named);
            byName.put(named.fullName(), named);
        }
        for (HostedTool t : tools) {
            byName.put(t.name(), t); // a name a model was given wins over a full name that equals it
        }
        Naming computed = new Naming(List.copyOf(key), List.copyOf(tools), Map.copyOf(byName));
        last = computed;
        return computed;
    }

    /**
     * Whether {@code name} is a full name {@code server + separator + tool} of a server of the registry.
     *
     * @param name    the name a call gave
     * @param servers the registry's servers by name
     * @return whether the part before the first separator names a server and a tool name follows
     */
    boolean isFullName(String name, Map<String, HostedServer> servers) {
        int at = name.indexOf(separator);
        return at > 0 && at + separator.length() < name.length() && servers.containsKey(name.substring(0, at));
    }

    /**
     * Where a call by name goes.
     *
     * @param server the server
     * @param tool   the server's own name of the tool
     * @param listed whether the tool is known to be in the server's list (a named tool); {@code false} for a full
     *               name, checked by {@link #requireListed} once the server is ready
     */
    record Route(HostedServer server, String tool, boolean listed) {
    }

    /**
     * Routes a call: a tool a model was given ({@code known}) to its server, else a full name to the server before
     * the first separator.
     *
     * @param name    the name the call gave
     * @param known   the tool of that name among the ready servers' tools, or {@code null}
     * @param servers the registry's servers by name
     * @return the route
     * @throws IllegalArgumentException if the known tool's server was removed, the name has no separator, or it names
     *                                  no server (the message lists the servers)
     */
    Route route(String name, @Nullable HostedTool known, Map<String, HostedServer> servers) {
        if (known != null) {
            HostedServer s = servers.get(known.server());
            if (s == null) {
                throw new IllegalArgumentException("unknown tool '" + printable(name) + "': its server '"
                        + printable(known.server()) + "' was removed");
            }
            return new Route(s, known.tool().name(), true);
        }
        String list = String.join(", ", servers.keySet().stream().map(ToolNaming::printable).toList());
        int at = name.indexOf(separator);
        if (at <= 0 || at + separator.length() >= name.length()) {
            throw new IllegalArgumentException("unknown tool '" + printable(name) + "': expected SERVER"
                    + separator + "TOOL (the servers are: " + list + ")");
        }
        String serverName = name.substring(0, at);
        HostedServer s = servers.get(serverName);
        if (s == null) {
            throw new IllegalArgumentException("unknown tool '" + printable(name) + "': there is no "
                    + "server '" + printable(serverName) + "' (the servers are: " + list + ")");
        }
        return new Route(s, name.substring(at + separator.length()), false);
    }

    /**
     * Checks that a full name's tool is in its ready server's list.
     *
     * @param name  the name the call gave
     * @param route its route
     * @param ready whether the server is ready (its list is known)
     * @throws IllegalArgumentException if the server is ready and does not list the tool
     */
    static void requireListed(String name, Route route, boolean ready) {
        List<Tool> listed = route.server().listedTools();
        if (ready && listed.stream().noneMatch(t -> route.tool().equals(t.name()))) {
            throw new IllegalArgumentException("unknown tool '" + printable(name) + "': server '"
                    + route.server().serverName() + "' does not list a tool '" + printable(route.tool())
                    + "' (it lists " + listed.size() + ")");
        }
    }

    /** A server or tool name for a message: at most 128 characters, control characters as {@code ?}. */
    static String printable(String s) {
        String cut = s.length() > 128 ? s.substring(0, 128) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
