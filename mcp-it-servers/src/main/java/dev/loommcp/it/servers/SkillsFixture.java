package dev.loommcp.it.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Locates loom-mcp's test server for the skills extension ({@code io.modelcontextprotocol/skills}, SEP-2640):
 * {@code test-servers/skills-fixture.mjs}, a dependency-free Node script that serves skills over stdio or plain-JSON
 * HTTP, in the 2025-11-25 era ({@code initialize}) and the 2026-07-28 era ({@code server/discover}). Its header lists
 * the skills: {@code release-notes} (honest, with a listed file whose served bytes fail the digest and a served file
 * the entry does not list), {@code digest-tampered}, {@code wrong-size}, {@code frontmatter-tampered} (each failing one
 * check of its {@code SKILL.md}), {@code live-notes} ({@code "dynamic"}) and an invalid entry {@code Bad_Name}; and the
 * methods {@code fixture/stats} (how often each URI was read with {@code resources/read}) and {@code fixture/reset}.
 * {@link HttpSkillsFixture} runs the HTTP variant for a test class.
 *
 * <p>Flags a caller may add: {@code --page-size N} (default 3), {@code --repeat-cursor}, {@code --no-directory-read},
 * {@code --no-cache-attributes}, {@code --no-extension}, {@code --no-invalid} (the suite's {@code sep-2640-skills-*}
 * server scenarios referee it so: {@code conformance/run.sh}, leg {@code skills-server}).
 */
public final class SkillsFixture {

    /** The {@code serverInfo.name} the fixture reports. */
    public static final String SERVER_NAME = "loom-skills-fixture";

    private SkillsFixture() {
    }

    /**
     * Returns the fixture script.
     *
     * @return the path of {@code test-servers/skills-fixture.mjs}
     * @throws IllegalStateException if the {@code test-servers} directory or the script cannot be found
     */
    public static Path script() {
        Path script = ReferenceServer.nodeDir().resolve("skills-fixture.mjs");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("the skills fixture " + script + " is missing");
        }
        return script;
    }

    /**
     * Returns the command line that runs the fixture over stdio (it exits when its stdin ends).
     *
     * @param flags extra flags (see the class comment)
     * @return argv
     * @throws IllegalStateException if the script cannot be found
     */
    public static List<String> stdioCommand(String... flags) {
        List<String> argv = new ArrayList<>(List.of("node", script().toString(), "--stdio"));
        argv.addAll(List.of(flags));
        return List.copyOf(argv);
    }

    /**
     * Returns the command line that runs the fixture over HTTP on an ephemeral port of 127.0.0.1; the first line it
     * prints is its endpoint ({@code http://127.0.0.1:PORT/mcp}).
     *
     * @param flags extra flags (see the class comment)
     * @return argv
     * @throws IllegalStateException if the script cannot be found
     */
    public static List<String> httpCommand(String... flags) {
        List<String> argv = new ArrayList<>(List.of("node", script().toString(), "--http", "0"));
        argv.addAll(List.of(flags));
        return List.copyOf(argv);
    }
}
