package dev.loommcp.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Locates the pinned reference server {@code @modelcontextprotocol/server-everything} (installed by {@code npm ci}
 * in {@code test-servers/}; Maven passes the directory as the system property {@code loommcp.node.dir}).
 */
public final class ReferenceServer {

    private ReferenceServer() {
    }

    /**
     * Returns the {@code test-servers} directory.
     *
     * @return the directory
     * @throws IllegalStateException if it cannot be found
     */
    public static Path nodeDir() {
        String prop = System.getProperty("loommcp.node.dir");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "test-servers").toAbsolutePath().normalize();
        if (!Files.isDirectory(dir.resolve("node_modules"))) {
            throw new IllegalStateException("the pinned Node packages are not installed in " + dir
                    + ": run `npm ci` there (scripts/test.sh does)");
        }
        return dir;
    }

    /**
     * Returns the entry script of server-everything.
     *
     * @return the path of {@code dist/index.js}
     */
    public static Path entry() {
        return nodeDir().resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    }

    /**
     * Returns the command line that runs server-everything over stdio, with the loopback-only preload.
     *
     * @return argv
     */
    public static List<String> stdioCommand() {
        return List.of("node", "-r", nodeDir().resolve("loopback-only.cjs").toString(), entry().toString(), "stdio");
    }

    /**
     * Returns the command line that runs server-everything over Streamable HTTP (pass {@code PORT} in the
     * environment); it binds 127.0.0.1 only.
     *
     * @return argv
     */
    public static List<String> httpCommand() {
        return List.of("node", "-r", nodeDir().resolve("loopback-only.cjs").toString(), entry().toString(),
                "streamableHttp");
    }
}
