package dev.loommcp.it.servers;

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
     * @throws IllegalStateException if the package is not installed
     */
    public static Path entry() {
        Path dir = nodeDir();
        requireInstalled(dir, "@modelcontextprotocol/server-everything");
        return dir.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    }

    /**
     * Checks that a pinned Node package is installed in {@code nodeDir/node_modules}, so a launch fails with this
     * clear message rather than with a server that exits at once ("exited with 1").
     *
     * @param nodeDir     the {@code test-servers} directory
     * @param packageName the package, e.g. {@code @modelcontextprotocol/server}
     * @throws IllegalStateException naming the package and the directory if its {@code package.json} is missing
     */
    public static void requireInstalled(Path nodeDir, String packageName) {
        if (!Files.isRegularFile(nodeDir.resolve("node_modules").resolve(packageName).resolve("package.json"))) {
            throw new IllegalStateException("the pinned Node package " + packageName + " is not installed in "
                    + nodeDir.resolve("node_modules") + ": run `npm ci` in " + nodeDir + " (scripts/test.sh does)");
        }
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
        return httpCommand("streamableHttp");
    }

    /**
     * Returns the command line that runs server-everything in one of its HTTP modes (pass {@code PORT} in the
     * environment); it binds 127.0.0.1 only.
     *
     * @param mode {@code streamableHttp}, or {@code sse} (the HTTP+SSE transport of 2024-11-05)
     * @return the command
     */
    public static List<String> httpCommand(String mode) {
        return List.of("node", "-r", nodeDir().resolve("loopback-only.cjs").toString(), entry().toString(), mode);
    }
}
