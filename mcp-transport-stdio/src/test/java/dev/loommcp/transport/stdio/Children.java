package dev.loommcp.transport.stdio;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.it.servers.ReferenceServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The child programs of the tests: scripts copied out of the test resources, node, process checks. */
final class Children {

    private static Path dir;

    private Children() {
    }

    /** Returns the path of a test resource script, copied to a temporary directory and made executable. */
    static synchronized Path script(String name) {
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("loommcp-stdio-test");
                dir.toFile().deleteOnExit();
            }
            Path p = dir.resolve(name);
            if (!Files.exists(p)) {
                try (InputStream in = Children.class.getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IllegalStateException("test resource " + name + " is missing");
                    }
                    Files.copy(in, p, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                p.toFile().deleteOnExit();
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the node binary: the pinned one from test-servers when installed, else {@code node} on PATH. */
    static String node() {
        Path pinned = ReferenceServer.nodeDir().resolve("node_modules/.bin/node");
        return Files.isExecutable(pinned) ? pinned.toString() : "node";
    }

    /** Returns argv that runs the fake server in the given mode with the given flags. */
    static List<String> fakeServer(String mode, String... flags) {
        List<String> argv = new ArrayList<>(List.of(node(), script("fake-server.cjs").toString(), mode));
        argv.addAll(List.of(flags));
        return argv;
    }

    /** Returns the {@code java} launcher of the running JDK, for child JVMs. */
    static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Returns a class path for a child JVM that holds everything this test JVM has (module and class path). */
    static String testClasspath() {
        List<String> cp = new ArrayList<>();
        for (String prop : List.of("jdk.module.path", "java.class.path")) {
            String v = System.getProperty(prop);
            if (v != null && !v.isBlank()) {
                cp.add(v);
            }
        }
        return String.join(java.io.File.pathSeparator, cp);
    }

    /** Returns a request with an integer id. */
    static JsonRpcMessage.Request request(long id, String method, Map<String, Object> params) {
        return new JsonRpcMessage.Request(RequestId.of(id), method, params);
    }

    /** Returns whether a process is gone: no longer in the process table, or a zombie waiting to be reaped. */
    static boolean gone(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (Files.isDirectory(Path.of("/proc/self"))) {
            try {
                String s = Files.readString(stat, StandardCharsets.US_ASCII);
                String state = s.substring(s.lastIndexOf(')') + 1).strip().split(" ")[0];
                return state.equals("Z") || state.equals("X");
            } catch (IOException e) {
                return true;
            }
        }
        return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
    }

    /** Kills a process if it is still there (clean-up after a failed test). */
    static void killQuietly(long pid) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Finds {@code <key> <number>} in a stderr tail, as the scripts print pids. */
    static Optional<Long> findNumber(String tail, String key) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + " (\\d+)$").matcher(tail);
        return m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
    }
}
