package dev.loommcp.cli;

import dev.loommcp.RequestOptions;
import dev.loommcp.skills.InvalidSkillEntry;
import dev.loommcp.skills.LoadedSkill;
import dev.loommcp.skills.McpSkills;
import dev.loommcp.skills.SkillEntry;
import dev.loommcp.skills.SkillFile;
import dev.loommcp.skills.SkillFileEntry;
import dev.loommcp.skills.SkillListing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The skills extension's commands ({@code io.modelcontextprotocol/skills}, SEP-2640) through {@link McpSkills}:
 * {@code skills} lists, {@code skill get} shows one entry, {@code skill load} loads a skill verified (and with
 * {@code --to DIR} writes its verified files out). A skill is named by its {@code name} (looked up in the listing) or
 * by its {@code SKILL.md} URI (confirmed with {@code skills/get}). A refused skill exits
 * {@value ExitCodes#SKILL_REFUSED} naming the check and the file.
 */
final class SkillCommands {

    private SkillCommands() {
    }

    /** {@code mcp skills}. */
    @Command(name = "skills", mixinStandardHelpOptions = true,
            description = {"List the server's skills (skills/list, every page): name, files, URI and description. "
                    + "Invalid entries are named on stderr and never loaded. Nothing of a skill is fetched."})
    static final class ListCommand implements java.util.concurrent.Callable<Integer> {
        @CommandLine.ParentCommand
        private McpCommand parent;

        /** Created by picocli. */
        ListCommand() {
        }

        @Override
        public Integer call() throws InterruptedException {
            Output io = parent.io();
            return parent.withClient(client -> {
                McpSkills skills = skills(parent, client);
                if (!skills.isSupported()) {
                    return notDeclared(io, parent.json(), skills);
                }
                SkillListing listing = skills.list(RequestOptions.DEFAULT);
                for (InvalidSkillEntry bad : listing.invalid()) {
                    io.err().println("mcp: refused skill entry " + TerminalText.cap(String.valueOf(bad.uri())) + ": "
                            + TerminalText.cap(bad.reason()));
                }
                if (parent.json()) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("skills", listing.skills().stream().map(SkillCommands::json).toList());
                    out.put("invalid", listing.invalid().stream().map(i -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("uri", i.uri());
                        m.put("reason", i.reason());
                        return m;
                    }).toList());
                    io.printJson(out);
                    return ExitCodes.OK;
                }
                List<List<String>> rows = new ArrayList<>();
                for (SkillEntry e : listing.skills()) {
                    rows.add(List.of(e.name(), e.isDynamic() ? "dynamic" : String.valueOf(e.resources().size()),
                            e.uri(), e.description()));
                }
                if (rows.isEmpty()) {
                    io.out().println("(no skills)");
                } else {
                    Render.table(io.out(), List.of("NAME", "FILES", "URI", "DESCRIPTION"), rows, io.width());
                }
                return ExitCodes.OK;
            });
        }
    }

    /** {@code mcp skill get|load}. */
    @Command(name = "skill", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
            description = {"One skill of the server, by name or SKILL.md URI: get (its entry: frontmatter and files "
                    + "with size and digest; nothing fetched) or load (fetch SKILL.md and its files, each verified "
                    + "by size, digest and frontmatter; exit 7 when one fails)."})
    static final class SkillCommand {
        @CommandLine.ParentCommand
        private McpCommand parent;

        /** Created by picocli. */
        SkillCommand() {
        }

        @Command(name = "get", mixinStandardHelpOptions = true,
                description = "Show a skill's entry (skills/list, or skills/get for a URI): name, description, "
                        + "frontmatter and every file with its size and digest. Nothing of the skill is fetched.")
        int get(@Parameters(paramLabel = "NAME", description = "the skill's name, or its SKILL.md URI") String name)
                throws InterruptedException {
            Output io = parent.io();
            return parent.withClient(client -> {
                McpSkills skills = skills(parent, client);
                SkillEntry e = entry(skills, name);
                if (parent.json()) {
                    io.printJson(json(e));
                    return ExitCodes.OK;
                }
                // one line each: a line break in a server's text is shown as a space, never as a line of its own
                io.out().println("name:        " + TerminalText.cap(Render.oneLine(e.name())));
                io.out().println("uri:         " + TerminalText.cap(Render.oneLine(e.uri())));
                io.out().println("description: " + TerminalText.cap(Render.oneLine(e.description())));
                io.out().println("frontmatter: " + TerminalText.cap(dev.loommcp.internal.json.Json.write(
                        e.frontmatter())));
                if (e.isDynamic()) {
                    io.out().println("files:       dynamic (not listed: size and digest cannot be checked)");
                } else {
                    List<List<String>> rows = new ArrayList<>();
                    for (SkillFileEntry f : e.resources()) {
                        rows.add(List.of(f.uri(), String.valueOf(f.size()), f.digest()));
                    }
                    Render.table(io.out(), List.of("FILE", "SIZE", "DIGEST"), rows, io.width());
                }
                return ExitCodes.OK;
            });
        }

        @Command(name = "load", mixinStandardHelpOptions = true,
                description = {"Load a skill: fetch its SKILL.md and every listed file, each verified (size, then "
                        + "digest, then the frontmatter field by field). Without --to the instructions (SKILL.md "
                        + "after its frontmatter) are printed; with --to DIR every verified file is written below "
                        + "DIR by its path in the skill (nothing is written unless every file passed; a path that "
                        + "would leave DIR is refused). A failed check exits 7 naming the file and the check."})
        int load(@Parameters(paramLabel = "NAME", description = "the skill's name, or its SKILL.md URI") String name,
                 @Option(names = "--to", paramLabel = "DIR", description = "write the verified files below DIR "
                         + "(created when missing)") Path to) throws InterruptedException {
            Output io = parent.io();
            return parent.withClient(client -> {
                McpSkills skills = skills(parent, client);
                LoadedSkill loaded = skills.load(entry(skills, name), RequestOptions.DEFAULT);
                List<SkillFile> files = loaded.readAll(RequestOptions.DEFAULT);
                if (to != null) {
                    Map<String, byte[]> byPath = new LinkedHashMap<>();
                    files.forEach(f -> byPath.put(f.path(), f.bytes()));
                    write(to, byPath);
                }
                if (parent.json()) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("uri", loaded.entry().uri());
                    out.put("name", loaded.name());
                    out.put("instructions", loaded.instructions());
                    out.put("files", files.stream().map(f -> Map.of("path", f.path(), "uri", f.uri(), "size",
                            f.size(), "verified", f.isVerified())).toList());
                    io.printJson(out);
                } else if (to == null) {
                    io.out().print(TerminalText.escape(loaded.instructions()));
                } else {
                    for (SkillFile f : files) {
                        io.out().println(TerminalText.cap(Render.oneLine(to.resolve(f.path()).toString())) + "  "
                                + f.size()
                                + " bytes" + (f.isVerified() ? "" : " (dynamic: not verified)"));
                    }
                }
                io.err().println("mcp: skill " + TerminalText.cap(Render.oneLine(loaded.name())) + " loaded, " + files.size()
                        + " file(s)" + (loaded.entry().isDynamic() ? " (dynamic: only the frontmatter was checked)"
                        : " verified"));
                return ExitCodes.OK;
            });
        }
    }

    /** The skills view, refusing before a read a file too large for the transport's message limit. */
    private static McpSkills skills(McpCommand parent, dev.loommcp.McpClient client) {
        Integer limit = parent.maxMessageSize();
        return McpSkills.newBuilder(client).maxMessageBytes(limit == null ? McpSkills.DEFAULT_MAX_MESSAGE_BYTES
                : limit).build();
    }

    /** A skill by name (from the listing) or by SKILL.md URI (skills/get). */
    private static SkillEntry entry(McpSkills skills, String name) throws InterruptedException {
        if (!skills.isSupported()) {
            throw new IllegalArgumentException("the server does not offer skills: "
                    + TerminalText.cap(skills.unsupportedReason().orElse("")));
        }
        if (name.endsWith("/SKILL.md")) {
            return skills.get(name, RequestOptions.DEFAULT);
        }
        SkillListing listing = skills.list(RequestOptions.DEFAULT);
        List<SkillEntry> named = listing.named(name);
        if (named.size() > 1) {
            throw new IllegalArgumentException("the server lists " + named.size() + " skills named '"
                    + TerminalText.cap(name) + "': name one by its URI (" + String.join(", ", named.stream()
                    .map(SkillEntry::uri).toList()) + ")");
        }
        if (named.isEmpty()) {
            // an entry refused as invalid is named with its reason: "no such skill" would mislead
            for (InvalidSkillEntry bad : listing.invalid()) {
                if (bad.uri() != null && bad.uri().endsWith("/" + name + "/SKILL.md")) {
                    throw new IllegalArgumentException("the server's entry " + TerminalText.cap(Render.oneLine(
                            bad.uri())) + " was refused as invalid: " + TerminalText.cap(Render.oneLine(
                            bad.reason())));
                }
            }
        }
        return named.stream().findFirst().orElseThrow(() -> new IllegalArgumentException("the server lists no "
                + "valid skill named '" + TerminalText.cap(name) + "' (mcp skills lists them; a skill may also be "
                + "named by its SKILL.md URI)"));
    }

    /**
     * Writes verified files below {@code dir}, by their paths in the skill, all or nothing. Every target is checked
     * before anything is written: inside {@code dir} by its path, and after resolving the links of its deepest existing
     * directory; not itself a link or a directory; no path the directory of another ({@code x} and {@code x/y}), and no
     * parent that exists as a file. The files are then written into a new temporary directory: moved as a whole to
     * {@code dir} when it did not exist, else moved file by file into it (each move a rename within one file system).
     * A failure while writing deletes the temporary directory: nothing is left.
     *
     * @param dir   the directory (created when missing)
     * @param files path in the skill to bytes, in the order to write
     * @throws IllegalArgumentException naming the first file that would leave {@code dir} or clashes with another
     * @throws UncheckedIOException     if a directory or file cannot be created or written, saying why (permission
     *                                  denied, not a directory, ...)
     */
    static void write(Path dir, Map<String, byte[]> files) {
        clashes(dir, files.keySet());
        Path tmp = null;
        boolean created = false;
        try {
            Path abs = dir.toAbsolutePath().normalize();
            Path parent = abs.getParent();
            if (parent == null) {
                throw new IllegalArgumentException("refusing to write the skill's files into " + dir
                        + ": name a directory below it");
            }
            created = !Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
            if (created) {
                Files.createDirectories(parent);
            } else if (!Files.isDirectory(abs)) {
                throw new java.nio.file.NotDirectoryException(abs.toString());
            }
            Path root = created ? parent.toRealPath().resolve(abs.getFileName()) : abs.toRealPath();
            for (String path : files.keySet()) {
                // a directory made here holds no links yet: its paths are checked by name only
                if (created) {
                    inside(root, dir, path);
                } else {
                    check(root, dir, path);
                }
            }
            // the temporary directory sits next to the final one or inside it: a move is a rename
            tmp = created ? Files.createTempDirectory(parent, "." + abs.getFileName() + ".mcp-")
                    : Files.createTempDirectory(root, ".mcp-skill-");
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path target = tmp.resolve(f.getKey()).normalize();
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
            }
            if (created) {
                Files.move(tmp, root, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                tmp = null;
            } else {
                for (String path : files.keySet()) {
                    Path target = check(root, dir, path);
                    Files.createDirectories(target.getParent());
                    check(root, dir, path);
                    Files.move(tmp.resolve(path).normalize(), target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the skill's files below " + dir + ": " + reason(e), e);
        } finally {
            if (tmp != null) {
                deleteTree(tmp);
            }
        }
    }

    /** Refuses paths of which one is the directory of another ({@code x} and {@code x/y}), before anything else. */
    private static void clashes(Path dir, java.util.Set<String> paths) {
        for (String path : paths) {
            for (int i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
                if (paths.contains(path.substring(0, i))) {
                    throw new IllegalArgumentException("refusing to write the skill's files below --to " + dir + ": '"
                            + TerminalText.cap(Render.oneLine(path.substring(0, i))) + "' is a file and also the"
                            + " directory of '" + TerminalText.cap(Render.oneLine(path)) + "'; nothing is written");
                }
            }
        }
    }

    /** Why a file operation failed, in words: the JDK's exceptions often carry only the path. */
    static String reason(IOException e) {
        String why = switch (e) {
            case java.nio.file.AccessDeniedException a -> "permission denied";
            case java.nio.file.NotDirectoryException n -> "not a directory";
            case java.nio.file.FileAlreadyExistsException x -> "not a directory: a file is in the way";
            case java.nio.file.NoSuchFileException n -> "no such file or directory";
            case java.nio.file.DirectoryNotEmptyException n -> "a directory that is not empty is in the way";
            case java.nio.file.FileSystemException f when f.getReason() != null -> f.getReason();
            default -> e.getClass().getSimpleName();
        };
        String path = e instanceof java.nio.file.FileSystemException f && f.getFile() != null ? f.getFile()
                : e.getMessage();
        return why + (path == null ? "" : " (" + path + ")");
    }

    /** Deletes a temporary tree, deepest first; what cannot be deleted is left (it is named nowhere else). */
    private static void deleteTree(Path tmp) {
        try (var walk = Files.walk(tmp)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: the failure being reported matters more than a leftover temporary directory
        }
    }

    /** The target of {@code path} below {@code root}, when it stays there; else the refusal. */
    private static Path check(Path root, Path dir, String path) throws IOException {
        Path target = inside(root, dir, path);
        Path existing = target.getParent();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null || !existing.toRealPath().startsWith(root) || Files.isSymbolicLink(target)
                || Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw leaves(dir, path);
        }
        if (!Files.isDirectory(existing) && existing.startsWith(root) && !existing.equals(root)) {
            throw new IllegalArgumentException("refusing to write the skill's file '" + TerminalText.cap(path)
                    + "': " + existing + " is a file, not a directory; nothing is written");
        }
        return target;
    }

    /** The target of {@code path} below {@code root} by name, when it stays strictly inside. */
    private static Path inside(Path root, Path dir, String path) {
        Path target = root.resolve(path).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw leaves(dir, path);
        }
        return target;
    }

    private static IllegalArgumentException leaves(Path dir, String path) {
        return new IllegalArgumentException("refusing to write the skill's file '" + TerminalText.cap(path)
                + "': it would leave --to " + dir + " (or is a link or a directory there); nothing is written");
    }

    /** The answer of {@code skills} for a server without the extension: no skills. */
    private static int notDeclared(Output io, boolean json, McpSkills skills) {
        if (json) {
            io.printJson(Map.of("skills", List.of()));
        } else {
            io.out().println("(the server does not offer skills: " + skills.unsupportedReason().orElse("") + ")");
        }
        return ExitCodes.OK;
    }

    /** An entry as the JSON the server sent (the checked members). */
    private static Map<String, Object> json(SkillEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uri", e.uri());
        m.put("frontmatter", e.frontmatter());
        m.put("resources", e.isDynamic() ? "dynamic" : e.resources().stream().map(f -> Map.of("uri", f.uri(),
                "digest", f.digest(), "size", f.size())).toList());
        return m;
    }

    /** Adds {@code skills} and {@code skill} to the command line. */
    static void register(CommandLine cl) {
        cl.addSubcommand("skills", new ListCommand());
        cl.addSubcommand("skill", new SkillCommand());
    }
}
