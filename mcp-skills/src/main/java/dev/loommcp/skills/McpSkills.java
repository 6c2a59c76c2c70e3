package dev.loommcp.skills;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.Era;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ServerCapabilities;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The skills extension ({@code io.modelcontextprotocol/skills}, SEP-2640) over one connected {@link McpClient}: list a
 * server's skills, get one by URI, and load one on demand, verified.
 *
 * <ul>
 *   <li>{@link #list(RequestOptions)} walks every {@code skills/list} page (at most {@linkplain Builder#maxPages 50},
 *       a repeated cursor refused), checks every entry ({@link SkillEntry}) and refuses the invalid ones and every
 *       copy of a URI listed twice ({@link SkillListing#invalid()}). Nothing of a skill is fetched. In the 2026-07-28
 *       era each page must carry {@code ttlMs} and {@code cacheScope}; the listing is then kept for {@code ttlMs}
 *       (the server's freshness hint; never a substitute for verification) and {@link #invalidate()} drops it.</li>
 *   <li>{@link #get(String, RequestOptions)} asks {@code skills/get} for one {@code SKILL.md} URI: how a host loads a
 *       skill it learned of from instructions, another skill or the user (a listing may be partial).</li>
 *   <li>{@link #load(SkillEntry, RequestOptions)} refuses an entry over the {@linkplain Builder#limits limits}, then
 *       fetches the {@code SKILL.md} (only now), checks its size, then its digest, then compares its frontmatter
 *       field by field with the entry's; {@link LoadedSkill#read} fetches one more file, only a listed one, verified
 *       the same way. Any failure throws {@link SkillVerificationException} naming the file and the check, and the
 *       content is not returned. In the 2026-07-28 era, where {@code resources/read} may be answered from the client's
 *       cache, a file that fails size or digest is read once more past the cache before it is refused.</li>
 *   <li>{@link #readDirectory(String, RequestOptions)}: {@code resources/directory/read}, only when the server
 *       declared {@code directoryRead}. A file it shows but the entry does not list is still refused by
 *       {@link LoadedSkill#read}.</li>
 * </ul>
 *
 * <p>A server that does not declare the extension has no skills: {@link #list} answers an empty listing without
 * sending anything, the other calls throw {@link IllegalStateException}. Every call honours its
 * {@link RequestOptions} like the client's own calls (a timeout covers the whole call, every page and file of it);
 * the core's exceptions ({@link dev.loommcp.McpRpcException}, {@link dev.loommcp.McpTimeoutException},
 * {@link dev.loommcp.McpCancelledException}, {@link dev.loommcp.McpClosedException},
 * {@link dev.loommcp.McpTransportException}) pass through. Memory is bounded by the entry: a file is held only up to
 * its listed size (a longer one fails the size check before it is decoded), a skill by the limits, a message by the
 * transport's message limit.
 *
 * <p>Thread-safe: the cached listing is replaced atomically; no lock is held while a request runs. Not named after,
 * and unrelated to, {@link dev.loommcp.McpSkillServer}.
 */
public final class McpSkills {

    /** The extension's identifier in {@code capabilities.extensions}. */
    public static final String EXTENSION = "io.modelcontextprotocol/skills";
    /** The most files of one skill every host must accept (SEP-2640 "Limits"): 512, {@code SKILL.md} included. */
    public static final int DEFAULT_MAX_FILES = 512;
    /** The most bytes (summed {@code size}) of one skill every host must accept: 16 MiB. */
    public static final long DEFAULT_MAX_BYTES = 16L * 1024 * 1024;
    /** The default bound of a listing's page walk: 50 pages. */
    public static final int DEFAULT_MAX_PAGES = 50;
    /**
     * The default largest message the client's transport accepts, in bytes: 16 MiB, the default of the stdio, HTTP
     * and SSE transports.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    /** What a {@code resources/read} answer adds to a file's base64 besides twice its URI: id, members, MIME type. */
    static final int READ_ENVELOPE_BYTES = 1024;

    private final McpClient client;
    private final int maxPages;
    private final int maxFiles;
    private final long maxBytes;
    private final int maxMessageBytes;
    private final AtomicReference<@Nullable Cached> cached = new AtomicReference<>();
    /**
     * The entries this view listed or got, while a caller holds them (weak keys, compared by value): an entry from
     * elsewhere is confirmed with {@code skills/get} before it is loaded.
     */
    private final Set<SkillEntry> known = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private record Cached(SkillListing listing, long expiresAtNanos) {
    }

    private McpSkills(Builder b) {
        this.client = b.client;
        this.maxPages = b.maxPages;
        this.maxFiles = b.maxFiles;
        this.maxBytes = b.maxBytes;
        this.maxMessageBytes = b.maxMessageBytes;
    }

    /**
     * Returns the skills of a client with the default bounds.
     *
     * @param client the client (connected before the first call)
     * @return the skills view
     */
    public static McpSkills of(McpClient client) {
        return newBuilder(client).build();
    }

    /**
     * Returns a builder.
     *
     * @param client the client (connected before the first call)
     * @return the builder
     */
    public static Builder newBuilder(McpClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * Returns the client.
     *
     * @return the client
     */
    public McpClient client() {
        return client;
    }

    /**
     * Returns whether the server declared the extension (in {@code initialize} or {@code server/discover}).
     *
     * @return {@code true} when {@code capabilities.extensions} names {@value #EXTENSION}
     * @throws IllegalStateException if the client is not connected
     */
    public boolean isSupported() {
        return settings() != null;
    }

    /**
     * Returns whether the server declared {@code directoryRead: true} in the extension's settings.
     *
     * @return whether {@link #readDirectory} may be called
     * @throws IllegalStateException if the client is not connected
     */
    public boolean supportsDirectoryRead() {
        Map<?, ?> s = settings();
        return s != null && Boolean.TRUE.equals(s.get("directoryRead"));
    }

    private @Nullable Map<?, ?> settings() {
        ServerCapabilities caps = client.serverCapabilities()
                .orElseThrow(() -> new IllegalStateException("the client is not connected"));
        Map<String, @Nullable Object> ext = caps.extensions();
        return ext != null && ext.get(EXTENSION) instanceof Map<?, ?> m ? m : null;
    }

    private void requireSupported(String what) {
        if (!isSupported()) {
            throw new IllegalStateException("cannot " + what + ": " + unsupportedReason().orElse("?"));
        }
    }

    /**
     * Says why {@link #isSupported()} is {@code false}: the server does not declare the extension, or declares it with
     * a value that is not an object of settings (SEP-2640 declares an object, {@code {}} at least; a declaration such
     * as {@code true} has the wrong shape and does not count).
     *
     * @return the reason, for a message; empty when the extension is supported
     * @throws IllegalStateException if the client is not connected
     */
    public Optional<String> unsupportedReason() {
        if (isSupported()) {
            return Optional.empty();
        }
        Map<String, @Nullable Object> ext = client.serverCapabilities().map(ServerCapabilities::extensions)
                .orElse(null);
        if (ext == null || !ext.containsKey(EXTENSION)) {
            return Optional.of("the server does not declare the extension " + EXTENSION);
        }
        Object v = ext.get(EXTENSION);
        String shape = v == null ? "null" : v instanceof Boolean || v instanceof Number ? String.valueOf(v)
                : v instanceof String ? "a string" : v instanceof List<?> ? "an array" : "a value that is not an object";
        return Optional.of("the server declares the extension " + EXTENSION + " as " + shape + ", not as an object"
                + " of settings ({} at least): the declaration has the wrong shape and does not count");
    }

    /**
     * Lists the server's skills, every page; answered from the kept listing while the server's {@code ttlMs} says it
     * is fresh (2026-07-28 era only).
     *
     * @param options timeout (for the whole walk), token, {@code _meta}
     * @return the valid entries and the refused ones; empty when the server does not declare the extension
     * @throws McpProtocolException  if a page is not a {@code skills/list} result (no {@code skills} array; in the
     *                               2026-07-28 era no valid {@code ttlMs} or {@code cacheScope}), a cursor repeats, or
     *                               the walk does not end within the page bound
     * @throws IllegalStateException if the client is not connected
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public SkillListing list(RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(options, "options");
        if (!isSupported()) {
            return SkillListing.empty();
        }
        Cached c = cached.get();
        if (c != null && System.nanoTime() - c.expiresAtNanos() < 0) {
            return c.listing();
        }
        RequestOptions opts = whole(options);
        List<Object> raw = new ArrayList<>();
        CacheHints hints = new CacheHints(null, null);
        String cursor = null;
        Set<String> cursors = new HashSet<>();
        for (int page = 1; ; page++) {
            Map<String, @Nullable Object> params = new LinkedHashMap<>();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            Map<String, @Nullable Object> result = client.request("skills/list", params, opts);
            hints = cacheHints(result, "skills/list");
            if (!(result.get("skills") instanceof List<?> skills)) {
                throw new McpProtocolException("the skills/list result has no skills array");
            }
            raw.addAll(skills);
            Object next = result.get("nextCursor");
            if (next == null) {
                break;
            }
            if (!(next instanceof String n) || !cursors.add(n)) {
                throw new McpProtocolException("skills/list returned " + (next instanceof String ? "the cursor of an"
                        + " earlier page again" : "a nextCursor that is not a string") + " (page " + page + ")");
            }
            if (page >= maxPages) {
                throw new McpProtocolException("skills/list did not end within " + maxPages + " pages");
            }
            cursor = n;
        }
        SkillListing listing = entries(raw, hints);
        known.addAll(listing.skills());
        if (hints.ttl() != null && !hints.ttl().isZero()) {
            cached.set(new Cached(listing, System.nanoTime() + hints.ttl().toNanos()));
        }
        return listing;
    }

    /** Drops the kept listing: the next {@link #list} asks the server. Thread-safe. */
    public void invalidate() {
        cached.set(null);
    }

    private static SkillListing entries(List<Object> raw, CacheHints hints) {
        List<SkillEntry> valid = new ArrayList<>();
        List<InvalidSkillEntry> invalid = new ArrayList<>();
        Map<String, Integer> copies = new HashMap<>();
        for (Object o : raw) {
            String uri = o instanceof Map<?, ?> m && m.get("uri") instanceof String u ? u : null;
            try {
                SkillEntry e = SkillEntry.fromJson(o);
                valid.add(e);
                copies.merge(SkillUris.parse(e.uri()).key(), 1, Integer::sum);
            } catch (IllegalArgumentException e) {
                invalid.add(new InvalidSkillEntry(uri, e.getMessage()));
            }
        }
        List<SkillEntry> kept = new ArrayList<>();
        for (SkillEntry e : valid) {
            int n = copies.get(SkillUris.parse(e.uri()).key());
            if (n > 1) {
                invalid.add(new InvalidSkillEntry(e.uri(), "the URI is listed " + n + " times: every copy is refused"));
            } else {
                kept.add(e);
            }
        }
        return new SkillListing(kept, invalid, hints.ttl(), hints.cacheScope());
    }

    /**
     * Gets one skill's entry by its {@code SKILL.md} URI ({@code skills/get}); the answer must be a valid entry for
     * that URI. Not cached.
     *
     * @param uri     the {@code SKILL.md} URI
     * @param options timeout, token, {@code _meta}
     * @return the entry
     * @throws IllegalArgumentException   if {@code uri} does not end in {@code /SKILL.md} (nothing is sent)
     * @throws SkillVerificationException {@link SkillVerificationException.Check#INVALID_ENTRY} if the answer is not a
     *                                    valid entry, or is one for another URI
     * @throws dev.loommcp.McpRpcException if the server answers an error ({@code -32602}: not a skill it serves)
     * @throws McpProtocolException       if the result has no {@code skill} (or, in the 2026-07-28 era, no valid
     *                                    cache attributes)
     * @throws IllegalStateException      if the client is not connected or the server does not declare the extension
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public SkillEntry get(String uri, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(options, "options");
        if (!uri.endsWith("/SKILL.md")) {
            throw new IllegalArgumentException("a skill URI ends in /SKILL.md: " + Printable.of(uri));
        }
        requireSupported("get a skill");
        Map<String, @Nullable Object> result = client.request("skills/get", Map.of("uri", uri), options);
        cacheHints(result, "skills/get");
        if (!result.containsKey("skill")) {
            throw new McpProtocolException("the skills/get result has no skill");
        }
        SkillEntry entry;
        try {
            entry = SkillEntry.fromJson(result.get("skill"));
        } catch (IllegalArgumentException e) {
            throw new SkillVerificationException(SkillVerificationException.Check.INVALID_ENTRY, uri, uri,
                    "skills/get answered an invalid entry for " + Printable.of(uri) + ": " + e.getMessage());
        }
        String asked;
        try {
            asked = SkillUris.parse(uri).key();
        } catch (IllegalArgumentException e) {
            asked = uri;
        }
        if (!SkillUris.parse(entry.uri()).key().equals(asked)) {
            throw new SkillVerificationException(SkillVerificationException.Check.INVALID_ENTRY, uri, entry.uri(),
                    "skills/get for " + Printable.of(uri) + " answered the entry of " + Printable.of(entry.uri()));
        }
        known.add(entry);
        return entry;
    }

    /**
     * Loads a skill: checks the limits, then fetches its {@code SKILL.md} and verifies it (size, digest, frontmatter
     * field by field; a dynamic skill: the frontmatter only). Its other files are fetched only when
     * {@linkplain LoadedSkill#read read}.
     *
     * <p>What a caller catches: {@link SkillVerificationException} (the client refused what the server sent, or the
     * entry), {@link SkillReadException} (a {@link dev.loommcp.McpRpcException}: the server answered the file's
     * {@code resources/read} with an error, for example {@code -32002} "not found" for a listed file), and the
     * core's {@link dev.loommcp.McpTimeoutException} (naming the file), {@link dev.loommcp.McpCancelledException},
     * {@link dev.loommcp.McpClosedException} and {@link dev.loommcp.McpTransportException}. Nothing else of the
     * server's making escapes: a frontmatter nested deeper than 64 levels or expanding through aliases is a
     * {@code FRONTMATTER} refusal, never an {@link Error}.
     *
     * <p>An entry this view did not list or get (one of another server, a stored one) is first confirmed with
     * {@code skills/get}: the server's entry must equal it, else it is refused as {@code INVALID_ENTRY}.
     *
     * @param entry   the entry held for the skill (from {@link #list} or {@link #get} of this view)
     * @param options timeout, token, {@code _meta}
     * @return the loaded skill
     * @throws SkillVerificationException if a check fails ({@code INVALID_ENTRY}, {@code LIMIT}, {@code CONTENT},
     *                                    {@code SIZE}, {@code DIGEST}, {@code FRONTMATTER}), naming the file; {@code LIMIT} before
     *                                    anything is read when the skill is over the {@linkplain Builder#limits limits}
     *                                    or its {@code SKILL.md} cannot fit one message
     *                                    ({@link Builder#maxMessageBytes})
     * @throws SkillReadException         if the server answers the {@code SKILL.md}'s {@code resources/read} with a
     *                                    JSON-RPC error
     * @throws dev.loommcp.McpTimeoutException if the options' deadline passes (the message names the file)
     * @throws IllegalStateException      if the client is not connected or the server does not declare the extension
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(SkillEntry entry, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(options, "options");
        requireSupported("load a skill");
        RequestOptions opts = whole(options);
        if (!known.contains(entry)) {
            // not listed or got here (another server's, a stored one, one made by hand): the server must confirm it
            SkillEntry confirmed = get(entry.uri(), opts);
            if (!confirmed.equals(entry)) {
                throw new SkillVerificationException(SkillVerificationException.Check.INVALID_ENTRY, entry.uri(),
                        entry.uri(), "the entry of " + Printable.of(entry.uri()) + " was not listed by this server,"
                        + " and its skills/get answers another entry (an entry of another server, or an old one):"
                        + " list or get the skill here and load that entry");
            }
        }
        List<SkillFileEntry> files = entry.resources();
        if (files.size() > maxFiles || entry.totalSize() > maxBytes) {
            throw new SkillVerificationException(SkillVerificationException.Check.LIMIT, entry.uri(), entry.uri(),
                    "skill " + Printable.of(entry.uri()) + " lists " + files.size() + " files of " + entry.totalSize()
                            + " bytes; this client accepts at most " + maxFiles + " files and " + maxBytes
                            + " bytes per skill");
        }
        LoadedSkill.Budget budget = new LoadedSkill.Budget(maxBytes);
        SkillFile skillMd = fetch(entry, entry.uri(), opts, budget);
        Map<String, @Nullable Object> parsed;
        String body;
        List<String> diff;
        try {
            Frontmatter.Split split = Frontmatter.split(FileChecks.strictUtf8(skillMd.bytes()));
            parsed = Frontmatter.parse(split.yaml());
            body = split.body();
            diff = Frontmatter.differences(entry.frontmatter(), parsed);
        } catch (IllegalArgumentException e) {
            throw new SkillVerificationException(SkillVerificationException.Check.FRONTMATTER, entry.uri(),
                    entry.uri(), Printable.of(entry.uri()) + " failed the frontmatter check: " + e.getMessage());
        }
        if (!diff.isEmpty()) {
            throw new SkillVerificationException(SkillVerificationException.Check.FRONTMATTER, entry.uri(),
                    entry.uri(), Printable.of(entry.uri()) + " failed the frontmatter check: its frontmatter differs"
                            + " from the entry's in " + String.join(", ", diff.stream().map(Printable::of).toList()));
        }
        return new LoadedSkill(this, entry, skillMd, parsed, body, budget);
    }

    /**
     * Gets a skill by URI and loads it: {@link #get} then {@link #load(SkillEntry, RequestOptions)}, under one
     * deadline.
     *
     * @param uri     the {@code SKILL.md} URI
     * @param options timeout (for both), token, {@code _meta}
     * @return the loaded skill
     * @throws SkillVerificationException as {@link #get} and {@link #load(SkillEntry, RequestOptions)}
     * @throws IllegalArgumentException   if {@code uri} does not end in {@code /SKILL.md}
     * @throws IllegalStateException      if the client is not connected or the server does not declare the extension
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public LoadedSkill load(String uri, RequestOptions options) throws InterruptedException {
        RequestOptions opts = whole(Objects.requireNonNull(options, "options"));
        return load(get(uri, opts), opts);
    }

    /**
     * Fetches and verifies one file of a skill.
     *
     * @param fileUri the file's URI: a listed one, or (dynamic skill) one strictly inside the root
     */
    SkillFile fetch(SkillEntry entry, String fileUri, RequestOptions opts, LoadedSkill.Budget budget)
            throws InterruptedException {
        SkillFileEntry listed = entry.isDynamic() ? null : entry.file(fileUri).orElseThrow(() ->
                new SkillVerificationException(SkillVerificationException.Check.UNLISTED, entry.uri(), fileUri,
                        Printable.of(fileUri) + " is not listed in the entry of " + Printable.of(entry.uri())));
        String path = entry.pathOf(fileUri);
        if (listed != null) {
            checkFitsOneMessage(entry, listed);
        }
        Map<String, @Nullable Object> params = Map.of("uri", fileUri);
        boolean retried = false;
        while (true) {
            Map<String, @Nullable Object> result = read(entry, fileUri, params, opts);
            try {
                long most = listed == null ? budget.remaining() : listed.size();
                FileChecks.Contents c = FileChecks.contents(result, entry.uri(), fileUri, most);
                if (listed == null) {
                    budget.spend(entry, fileUri, c.bytes().length);
                } else {
                    FileChecks.verify(entry, listed, c.bytes());
                }
                return new SkillFile(fileUri, path, c.mimeType(), c.bytes(), listed != null);
            } catch (SkillVerificationException e) {
                // a cached copy may be stale: read once more past the client's cache (2026-07-28 era only)
                if (retried || listed == null || client.era().orElse(Era.LEGACY) != Era.MODERN) {
                    throw e;
                }
                retried = true;
                params = Map.of("uri", fileUri, "_meta", Map.of());
            }
        }
    }

    /**
     * Refuses a listed file whose {@code resources/read} answer, as base64 with its envelope, would be longer than
     * the transport accepts: the transport would close the whole connection on it.
     */
    private void checkFitsOneMessage(SkillEntry entry, SkillFileEntry listed) {
        long base64 = (listed.size() / 3 + (listed.size() % 3 == 0 ? 0 : 1)) * 4;
        long message = base64 + READ_ENVELOPE_BYTES + 2L * listed.uri().length();
        if (base64 < 0 || message > maxMessageBytes) {
            throw new SkillVerificationException(SkillVerificationException.Check.LIMIT, entry.uri(), listed.uri(),
                    Printable.of(listed.uri()) + " is listed at " + listed.size() + " bytes: as base64 its"
                            + " resources/read answer would be about " + message + " bytes, over this client's message"
                            + " limit of " + maxMessageBytes + " bytes (raise the transport's limit, StdioTransport"
                            + ".Builder.maxMessageBytes or HttpTransport.Builder.maxMessageSize, or the CLI's"
                            + " --max-message-size, and McpSkills.Builder.maxMessageBytes with it)");
        }
    }

    /** One {@code resources/read} of a skill's file; an error or a timeout names the file. */
    private Map<String, @Nullable Object> read(SkillEntry entry, String fileUri, Map<String, @Nullable Object> params,
                                               RequestOptions opts) throws InterruptedException {
        try {
            return client.request("resources/read", params, opts);
        } catch (SkillReadException e) {
            throw e;
        } catch (McpRpcException e) {
            throw new SkillReadException(entry.uri(), fileUri, e);
        } catch (McpTimeoutException e) {
            McpTimeoutException named = new McpTimeoutException(e.getMessage() + " while reading "
                    + Printable.of(fileUri) + " of the skill " + Printable.of(entry.uri()));
            named.addSuppressed(e);
            throw named;
        }
    }

    /**
     * Reads a directory of a skill ({@code resources/directory/read}), every page: its direct children, a
     * subdirectory with {@code mimeType "inode/directory"}. What it shows is not what a skill may read: only the
     * entry's files are ({@link LoadedSkill#read}).
     *
     * @param uri     the directory's URI, without a trailing slash (a skill's root, or a directory below it)
     * @param options timeout (for the whole walk), token, {@code _meta}
     * @return the children, in the server's order
     * @throws IllegalStateException     if the client is not connected or the server did not declare
     *                                   {@code directoryRead}
     * @throws dev.loommcp.McpRpcException if the server answers an error ({@code -32602}: not a directory)
     * @throws McpProtocolException      if a page has no {@code resources} array or an item without a string
     *                                   {@code uri}, a cursor repeats, the walk does not end within the page bound, or
     *                                   (2026-07-28 era) the cache attributes are missing
     * @throws InterruptedException      if the calling thread is interrupted
     */
    public List<Resource> readDirectory(String uri, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(options, "options");
        if (!supportsDirectoryRead()) {
            throw new IllegalStateException("cannot read a skill directory: the server does not declare "
                    + EXTENSION + " with directoryRead");
        }
        RequestOptions opts = whole(options);
        List<Resource> out = new ArrayList<>();
        String cursor = null;
        Set<String> cursors = new HashSet<>();
        for (int page = 1; ; page++) {
            Map<String, @Nullable Object> params = new LinkedHashMap<>();
            params.put("uri", uri);
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            Map<String, @Nullable Object> result = client.request("resources/directory/read", params, opts);
            cacheHints(result, "resources/directory/read");
            if (!(result.get("resources") instanceof List<?> items)) {
                throw new McpProtocolException("the resources/directory/read result has no resources array");
            }
            for (Object o : items) {
                out.add(resource(o));
            }
            Object next = result.get("nextCursor");
            if (next == null) {
                return out;
            }
            if (!(next instanceof String n) || !cursors.add(n) || page >= maxPages) {
                throw new McpProtocolException("resources/directory/read of " + Printable.of(uri) + " returned a"
                        + " repeated or non-string cursor, or did not end within " + maxPages + " pages");
            }
            cursor = n;
        }
    }

    private static Resource resource(@Nullable Object o) {
        if (!(o instanceof Map<?, ?> m) || !(m.get("uri") instanceof String uri)) {
            throw new McpProtocolException("a resources/directory/read item has no string uri");
        }
        Long size = m.get("size") instanceof Number n ? n.longValue() : null;
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> meta = m.get("_meta") instanceof Map<?, ?> mm
                ? (Map<String, @Nullable Object>) mm : null;
        return new Resource(uri, str(m.get("name")), str(m.get("title")), str(m.get("description")),
                str(m.get("mimeType")), size, null, null, meta);
    }

    private static @Nullable String str(@Nullable Object o) {
        return o instanceof String s ? s : null;
    }

    /** The server's {@code ttlMs} and {@code cacheScope}. */
    private record CacheHints(@Nullable Duration ttl, @Nullable String cacheScope) {
    }

    /** Reads the cache attributes; in the 2026-07-28 era both are required (SEP-2640 "Enumeration"). */
    private CacheHints cacheHints(Map<String, @Nullable Object> result, String method) {
        Object ttl = result.get("ttlMs");
        Object scope = result.get("cacheScope");
        boolean modern = client.era().orElse(Era.LEGACY) == Era.MODERN;
        boolean ttlOk = ttl instanceof Number n && n.doubleValue() >= 0
                && n.doubleValue() == Math.rint(n.doubleValue());
        boolean scopeOk = "public".equals(scope) || "private".equals(scope);
        if (modern && (!ttlOk || !scopeOk)) {
            throw new McpProtocolException("the " + method + " result lacks a valid " + (ttlOk ? "cacheScope"
                    : "ttlMs") + ", which MCP 2026-07-28 requires");
        }
        return new CacheHints(ttlOk ? Duration.ofMillis(((Number) ttl).longValue()) : null,
                scopeOk ? (String) scope : null);
    }

    /**
     * The options of a call made of several requests: a timeout becomes one deadline for all of them.
     */
    static RequestOptions whole(RequestOptions options) {
        if (options.timeout().isEmpty()) {
            return options;
        }
        Instant end = Instant.now().plus(options.timeout().get());
        Instant deadline = options.deadline().filter(d -> d.isBefore(end)).orElse(end);
        return options.toBuilder().timeout(null).deadline(deadline).build();
    }

    /**
     * Builds an {@link McpSkills}. Not thread-safe.
     */
    public static final class Builder {
        private final McpClient client;
        private int maxPages = DEFAULT_MAX_PAGES;
        private int maxFiles = DEFAULT_MAX_FILES;
        private long maxBytes = DEFAULT_MAX_BYTES;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;

        private Builder(McpClient client) {
            this.client = client;
        }

        /**
         * Sets the most {@code skills/list} (and {@code resources/directory/read}) pages one walk reads; a server
         * that would send more fails the call. Default {@value McpSkills#DEFAULT_MAX_PAGES}.
         *
         * @param pages at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxPages(int pages) {
            if (pages < 1) {
                throw new IllegalArgumentException("maxPages must be at least 1: " + pages);
            }
            this.maxPages = pages;
            return this;
        }

        /**
         * Sets the largest skill {@link #load} accepts: the number of listed files and their summed {@code size}
         * (for a dynamic skill, the bytes actually read). SEP-2640 requires at least 512 files and 16 MiB
         * (the defaults); smaller values are for tests and constrained hosts.
         *
         * @param files the most files, at least 1
         * @param bytes the most bytes, at least 1
         * @return this builder
         * @throws IllegalArgumentException if either is less than 1
         */
        public Builder limits(int files, long bytes) {
            if (files < 1 || bytes < 1) {
                throw new IllegalArgumentException("limits must be at least 1: " + files + " files, " + bytes
                        + " bytes");
            }
            this.maxFiles = files;
            this.maxBytes = bytes;
            return this;
        }

        /**
         * Sets the largest message the client's transport accepts, in bytes: the transport's own setting
         * ({@code StdioTransport.Builder.maxMessageBytes}, {@code HttpTransport.Builder.maxMessageSize}), which this
         * view cannot read. A listed file whose {@code resources/read} answer would not fit (its size as base64,
         * about 4/3 of it, plus about 1 KiB and twice its URI) is refused as
         * {@link SkillVerificationException.Check#LIMIT} before it is read, instead of the transport closing the
         * connection on the long message. Default {@value McpSkills#DEFAULT_MAX_MESSAGE_BYTES} (16 MiB, the
         * transports' default): files up to about 12 MiB. SEP-2640 hosts must accept files of 16 MiB: set the
         * transport's limit and this one to 24 MiB ({@code 24 * 1024 * 1024}) or more.
         *
         * @param bytes the transport's limit, at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxMessageBytes must be at least 1: " + bytes);
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * Builds the view.
         *
         * @return the skills view of the client
         */
        public McpSkills build() {
            return new McpSkills(this);
        }
    }
}
