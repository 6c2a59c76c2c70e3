package dev.loommcp.skills;

import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.McpServers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The skills of every server of an {@link McpServers} registry: listed together under namespaced names
 * ({@link HostedSkill}), loaded on demand from the server that listed them. Nothing of a skill is fetched before
 * {@link #load}. Servers that do not declare {@value McpSkills#EXTENSION} contribute nothing; a server that fails
 * while listing is left out of that listing (logged at WARNING with its name and the failure, never content) and the
 * others are still listed.
 *
 * <p>Needs mcp-hosts on the class or module path (an optional dependency of mcp-skills). Thread-safe: the last
 * listing is replaced atomically, and no lock is held while a server is asked.
 */
public final class HostSkills {

    private static final System.Logger LOG = System.getLogger(HostSkills.class.getName());

    private final McpServers servers;
    private final Map<String, McpSkills> byServer = new ConcurrentHashMap<>();
    private final AtomicReference<Map<String, HostedSkill>> last = new AtomicReference<>(Map.of());

    private HostSkills(McpServers servers) {
        this.servers = servers;
    }

    /**
     * Returns the skills view of a registry.
     *
     * @param servers the registry (its servers are started as a call needs them)
     * @return the view
     */
    public static HostSkills of(McpServers servers) {
        return new HostSkills(Objects.requireNonNull(servers, "servers"));
    }

    /**
     * Lists the skills of every server, in the registry's order of servers and each server's order of skills
     * (starting servers that are not running, waiting for them within the options' deadline). A server that fails
     * (or does not answer within the deadline) is left out, logged at WARNING.
     *
     * <p>Names are stable per identity: a skill whose name no other skill of its server shares is
     * {@code server + separator + name}; skills of one server that share a name are each
     * {@code server + separator + name + "#" + 8 hex digits} taken from the SHA-256 of the {@code SKILL.md} URI (its
     * comparison form), so the same name never means another skill in a later listing, whatever the server's order.
     *
     * @param options the deadline and token of the whole listing
     * @return the skills
     * @throws McpClosedException   if the registry is closed
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<HostedSkill> list(RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        List<HostedSkill> out = new ArrayList<>();
        for (String server : servers.names()) {
            out.addAll(listServer(server, opts));
        }
        Map<String, HostedSkill> byName = new HashMap<>();
        out.forEach(s -> byName.put(s.name(), s));
        last.set(Map.copyOf(byName));
        return List.copyOf(out);
    }

    /** One server's skills, named; empty (and logged) when the server fails. */
    private List<HostedSkill> listServer(String server, RequestOptions opts) throws InterruptedException {
        SkillListing listing;
        try {
            listing = skills(server, opts).list(opts);
        } catch (McpClosedException e) {
            if (servers.isClosed()) {
                throw e;
            }
            warn(server, e);
            return List.of();
        } catch (McpException | IllegalStateException | IllegalArgumentException e) {
            warn(server, e);
            return List.of();
        }
        Map<String, Integer> counts = new HashMap<>();
        listing.skills().forEach(e -> counts.merge(e.name(), 1, Integer::sum));
        List<HostedSkill> out = new ArrayList<>();
        for (SkillEntry e : listing.skills()) {
            String name = server + servers.separator() + e.name() + (counts.get(e.name()) > 1 ? "#"
                    + uriTag(e.uri()) : "");
            out.add(new HostedSkill(name, server, e));
        }
        return out;
    }

    /** The disambiguation of a shared name: 8 hex digits of the SHA-256 of the URI's comparison form. */
    static String uriTag(String uri) {
        byte[] hash = FileChecks.sha256(SkillUris.parse(uri).key().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(hash, 0, 4);
    }

    private static void warn(String server, RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, () -> "skills of server '" + Printable.of(server) + "' not listed: "
                + e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    /**
     * Looks a skill up by its namespaced name in the last {@link #list} result.
     *
     * @param name the namespaced name
     * @return the skill, or empty when the last listing had none of that name
     */
    public Optional<HostedSkill> skill(String name) {
        return Optional.ofNullable(last.get().get(Objects.requireNonNull(name, "name")));
    }

    /**
     * Loads a skill by its namespaced name, from the server that listed it, verified. The last listing is asked
     * first; when it has no such name, only the server the name's prefix names is listed again (within the options'
     * deadline: without a timeout or deadline, the client's default request timeout bounds the listing), its skills
     * replacing that server's in the last listing. A server that fails to list is skipped, and the name is then
     * unknown.
     *
     * @param name    the namespaced name
     * @param options timeout (for the whole call, the listing included), token, {@code _meta}
     * @return the loaded skill
     * @throws IllegalArgumentException   if no server lists a skill of that name (a name now shared by several
     *                                    skills of its server names their {@code #} names)
     * @throws SkillVerificationException as {@link McpSkills#load(SkillEntry, RequestOptions)}, its message naming
     *                                    the server
     * @throws SkillReadException         as {@link McpSkills#load(SkillEntry, RequestOptions)}
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(String name, RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        Optional<HostedSkill> known = skill(name);
        if (known.isEmpty()) {
            for (String server : servers.names()) {
                if (name.startsWith(server + servers.separator())) {
                    List<HostedSkill> fresh = listServer(server, opts);
                    last.updateAndGet(m -> {
                        Map<String, HostedSkill> next = new HashMap<>(m);
                        next.values().removeIf(h -> h.server().equals(server));
                        fresh.forEach(h -> next.put(h.name(), h));
                        return Map.copyOf(next);
                    });
                }
            }
            known = skill(name);
        }
        if (known.isEmpty()) {
            List<String> shared = last.get().keySet().stream().filter(n -> n.startsWith(name + "#")).sorted()
                    .toList();
            throw new IllegalArgumentException("no server lists a skill named '" + Printable.of(name) + "' (names are"
                    + " SERVER" + servers.separator() + "SKILL" + (shared.isEmpty() ? ")" : "; several skills share"
                    + " that name: " + String.join(", ", shared.stream().map(Printable::of).toList()) + ")"));
        }
        HostedSkill s = known.get();
        try {
            return skills(s.server(), opts).load(s.entry(), opts);
        } catch (SkillVerificationException e) {
            throw named(s.server(), e);
        }
    }

    /** A refusal whose message names the server first. */
    private static SkillVerificationException named(String server, SkillVerificationException e) {
        SkillVerificationException named = new SkillVerificationException(e.check(), e.skillUri(), e.fileUri(),
                "server '" + Printable.of(server) + "': " + e.getMessage());
        named.initCause(e);
        return named;
    }

    /**
     * Loads a skill by its identity: the server's name in the registry and the {@code SKILL.md} URI (confirmed with
     * {@code skills/get}; for a skill learned of outside a listing).
     *
     * @param server  the server's name in the registry
     * @param uri     the {@code SKILL.md} URI
     * @param options timeout (for the whole call), token, {@code _meta}
     * @return the loaded skill
     * @throws IllegalArgumentException   if there is no such server, or {@code uri} does not end in {@code /SKILL.md}
     * @throws SkillVerificationException as {@link McpSkills#load(String, RequestOptions)}, its message naming the
     *                                    server
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(String server, String uri, RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        McpSkills skills = skills(Objects.requireNonNull(server, "server"), opts);
        try {
            return skills.load(Objects.requireNonNull(uri, "uri"), opts);
        } catch (SkillVerificationException e) {
            throw named(server, e);
        }
    }

    /**
     * Returns the skills view of one server's current client (a new one after the server restarted).
     *
     * @param server  the server's name in the registry
     * @param options the wait's deadline and token
     * @return the view
     * @throws IllegalArgumentException if there is no such server
     * @throws InterruptedException     if the calling thread is interrupted
     */
    public McpSkills skills(String server, RequestOptions options) throws InterruptedException {
        McpClient client = servers.server(server).client(options);
        return byServer.compute(server, (k, v) -> v != null && v.client() == client ? v : McpSkills.of(client));
    }
}
