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
     * (starting servers that are not running, waiting for them within the options' deadline).
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
            SkillListing listing;
            try {
                listing = skills(server, opts).list(opts);
            } catch (McpClosedException e) {
                if (servers.isClosed()) {
                    throw e;
                }
                warn(server, e);
                continue;
            } catch (McpException | IllegalStateException | IllegalArgumentException e) {
                warn(server, e);
                continue;
            }
            Map<String, Integer> seen = new HashMap<>();
            for (SkillEntry e : listing.skills()) {
                int n = seen.merge(e.name(), 1, Integer::sum);
                String name = server + servers.separator() + e.name() + (n > 1 ? "#" + n : "");
                out.add(new HostedSkill(name, server, e));
            }
        }
        Map<String, HostedSkill> byName = new HashMap<>();
        out.forEach(s -> byName.put(s.name(), s));
        last.set(Map.copyOf(byName));
        return List.copyOf(out);
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
     * Loads a skill by its namespaced name (listing first when the last listing does not have it), from the server
     * that listed it, verified.
     *
     * @param name    the namespaced name
     * @param options timeout (for the whole call), token, {@code _meta}
     * @return the loaded skill
     * @throws IllegalArgumentException   if no server lists a skill of that name
     * @throws SkillVerificationException as {@link McpSkills#load(SkillEntry, RequestOptions)}
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(String name, RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        Optional<HostedSkill> known = skill(name);
        if (known.isEmpty()) {
            list(opts);
            known = skill(name);
        }
        HostedSkill s = known.orElseThrow(() -> new IllegalArgumentException("no server lists a skill named '"
                + Printable.of(name) + "' (names are SERVER" + servers.separator() + "SKILL)"));
        return skills(s.server(), opts).load(s.entry(), opts);
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
     * @throws SkillVerificationException as {@link McpSkills#load(String, RequestOptions)}
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(String server, String uri, RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        return skills(Objects.requireNonNull(server, "server"), opts).load(Objects.requireNonNull(uri, "uri"), opts);
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
