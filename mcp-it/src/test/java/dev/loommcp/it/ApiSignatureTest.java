package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.langchain4j.LoomToolProvider;
import dev.loommcp.opentelemetry.McpTelemetry;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.unix.UnixConnector;
import dev.loommcp.transport.stdio.StdioTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API signature check: the public API of each published module (see {@link ApiDump}) must equal the file checked
 * in at {@code <module dir>/api/<module name>.txt}, so that every change to the public API is deliberate and shows
 * in review as a change of that file. Regenerate after an intended change with
 * {@value #REGENERATE} and commit the files.
 */
class ApiSignatureTest {

    /** The command that rewrites the API files from the current code. */
    static final String REGENERATE = "./mvnw -B -ntp -pl mcp-it -am verify -Dtest=ApiSignatureTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dapi.update=true";

    static Stream<Arguments> publishedModules() {
        return Stream.of(
                Arguments.of("mcp-core", McpClient.class),
                Arguments.of("mcp-transport-stdio", StdioTransport.class),
                Arguments.of("mcp-transport-http", HttpTransport.class),
                Arguments.of("mcp-transport-unix", UnixConnector.class),
                Arguments.of("mcp-testing", ScriptedTransport.class),
                Arguments.of("mcp-tasks", McpTasks.class),
                Arguments.of("mcp-hosts", McpServers.class),
                Arguments.of("mcp-skills", dev.loommcp.skills.McpSkills.class),
                Arguments.of("mcp-auth", McpOAuth.class),
                Arguments.of("mcp-langchain4j", LoomToolProvider.class),
                Arguments.of("mcp-opentelemetry", McpTelemetry.class),
                Arguments.of("mcp-store-jdbc", dev.loommcp.store.jdbc.JdbcTokenStore.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("publishedModules")
    void publicApiMatchesTheCheckedInSignatureFile(String moduleDir, Class<?> anyClass) throws IOException {
        ApiDump.Dump dump = ApiDump.of(anyClass);
        assertThat(dump.lines()).as("exported API of " + dump.module()).isNotEmpty();
        Path file = Path.of(System.getProperty("loommcp.root.dir", "..")).resolve(moduleDir).resolve("api")
                .resolve(dump.module() + ".txt");
        String actual = String.join("\n", dump.lines()) + "\n";
        if (Boolean.getBoolean("api.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
            return;
        }
        assertThat(file).as("API file " + file + " is missing; create it with: " + REGENERATE).exists();
        List<String> expected = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (!expected.equals(dump.lines())) {
            throw new AssertionError("the public API of " + dump.module() + " differs from " + file
                    + " (- checked in, + now):\n" + diff(expected, dump.lines())
                    + "\nIf the change is intended, regenerate with\n  " + REGENERATE
                    + "\nand commit the file; otherwise restore the API.");
        }
    }

    /**
     * Every package a published module exports is {@code @NullMarked} (JSpecify), so a type in its signatures
     * excludes {@code null} unless written {@code @Nullable} (the rule in each package's {@code package-info.java}
     * and docs/architecture.md).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("publishedModules")
    void everyExportedPackageIsNullMarked(String moduleDir, Class<?> anyClass) throws IOException {
        ApiDump.Dump dump = ApiDump.of(anyClass);
        Set<String> unmarked = new TreeSet<>();
        for (String pkg : dump.exported()) {
            boolean marked;
            try {
                marked = Class.forName(pkg + ".package-info", false, anyClass.getClassLoader())
                        .isAnnotationPresent(NullMarked.class);
            } catch (ClassNotFoundException e) {
                marked = false; // no package-info.java
            }
            if (!marked) {
                unmarked.add(pkg);
            }
        }
        assertThat(unmarked).as("exported packages of " + dump.module() + " without @NullMarked in their "
                + "package-info.java").isEmpty();
    }

    private static String diff(List<String> expected, List<String> actual) {
        Set<String> was = new HashSet<>(expected);
        Set<String> now = new HashSet<>(actual);
        List<String> out = new ArrayList<>();
        expected.stream().filter(l -> !now.contains(l)).forEach(l -> out.add("- " + l));
        actual.stream().filter(l -> !was.contains(l)).forEach(l -> out.add("+ " + l));
        return String.join("\n", out);
    }
}
