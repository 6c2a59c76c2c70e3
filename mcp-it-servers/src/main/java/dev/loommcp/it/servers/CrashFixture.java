package dev.loommcp.it.servers;

import java.nio.file.Path;
import java.util.List;

/**
 * Locates {@code test-servers/crash-fixture.cjs}: a dependency-free legacy-era stdio server that exits with status 1
 * after answering its N-th {@code tools/call} (tools {@code echo}, {@code calls}, {@code grow}; see the script's
 * header), for the tests of restarting a crashed server.
 */
public final class CrashFixture {

    private CrashFixture() {
    }

    /**
     * Returns the fixture script.
     *
     * @return the path of {@code test-servers/crash-fixture.cjs}
     */
    public static Path script() {
        return ReferenceServer.nodeDir().resolve("crash-fixture.cjs");
    }

    /**
     * Returns the command line that runs the fixture over stdio.
     *
     * @param crashAfter the number of tool calls it answers before it exits; 0 for never
     * @return argv
     */
    public static List<String> stdioCommand(int crashAfter) {
        return List.of("node", script().toString(), "--crash-after", Integer.toString(crashAfter));
    }

    /**
     * Returns the command line of a fixture that exits right after it answered {@code tools/list}: every start of
     * it dies just after the client listed its tools.
     *
     * @return argv
     */
    public static List<String> exitAfterListCommand() {
        return List.of("node", script().toString(), "--crash-after", "0", "--exit-after-list");
    }

    /**
     * Returns the command line of a fixture that never crashes and also lists the tool {@code malformed}, whose
     * result breaks the protocol ({@code content} is a string, not a list).
     *
     * @return argv
     */
    public static List<String> malformedResultCommand() {
        return List.of("node", script().toString(), "--crash-after", "0", "--malformed");
    }
}
