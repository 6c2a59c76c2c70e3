package dev.loommcp.it.servers;

import java.nio.file.Path;
import java.util.List;

/**
 * Locates loom-mcp's modern-era test server {@code test-servers/modern-fixture.mjs} (built on the reference SDK
 * {@code @modelcontextprotocol/server} 2.4.0, which serves MCP 2026-07-28 and, from the same definitions, the 2025
 * era) and the small legacy stdio scripts of {@code test-servers/legacy-stdio.cjs}. The script's header lists its
 * tools, prompt and resource. {@link HttpModernFixture} runs the HTTP variant for a test class.
 */
public final class ModernFixture {

    /** Which eras the fixture serves. */
    public enum Variant {
        /** 2026-07-28 and, for a client that opens with {@code initialize}, 2025-11-25 ({@code --legacy serve}). */
        DUAL_ERA("serve", "loom-modern-fixture"),
        /** 2026-07-28 only: a 2025 opening is refused with {@code -32022} ({@code --legacy reject}). */
        MODERN_ONLY("reject", "loom-modern-only-fixture");

        private final String legacyFlag;
        private final String serverName;

        Variant(String legacyFlag, String serverName) {
            this.legacyFlag = legacyFlag;
            this.serverName = serverName;
        }

        /**
         * Returns the value of the script's {@code --legacy} flag.
         *
         * @return {@code serve} or {@code reject}
         */
        public String legacyFlag() {
            return legacyFlag;
        }

        /**
         * Returns the {@code serverInfo.name} this variant reports.
         *
         * @return the name
         */
        public String serverName() {
            return serverName;
        }
    }

    private ModernFixture() {
    }

    /**
     * Returns the fixture script.
     *
     * @return the path of {@code test-servers/modern-fixture.mjs}
     * @throws IllegalStateException if the reference SDK's packages it imports are not installed
     */
    public static Path script() {
        Path dir = ReferenceServer.nodeDir();
        for (String pkg : List.of("@modelcontextprotocol/server", "@modelcontextprotocol/node", "zod")) {
            ReferenceServer.requireInstalled(dir, pkg);
        }
        return dir.resolve("modern-fixture.mjs");
    }

    /**
     * Returns the command line that runs the fixture over stdio (it exits when its stdin ends).
     *
     * @param variant dual-era or modern-only
     * @return argv
     */
    public static List<String> stdioCommand(Variant variant) {
        return List.of("node", script().toString(), "--stdio", "--legacy", variant.legacyFlag());
    }

    /**
     * Returns the command line that runs the fixture over Streamable HTTP on an ephemeral port of 127.0.0.1; the
     * first line it prints on stdout is its endpoint ({@code http://127.0.0.1:PORT/mcp}).
     *
     * @param variant dual-era or modern-only
     * @return argv
     */
    public static List<String> httpCommand(Variant variant) {
        return List.of("node", script().toString(), "--http", "0", "--legacy", variant.legacyFlag());
    }

    /**
     * Returns the command line of a 2025-era stdio server that never answers a request sent before
     * {@code initialize} (a {@code server/discover} probe gets silence) and serves {@code echo} after it.
     *
     * @return argv
     */
    public static List<String> silentLegacyCommand() {
        return List.of("node", legacyScript().toString(), "--silent");
    }

    /**
     * Returns the command line of a 2025-era stdio server that exits (status 3) on any request sent before
     * {@code initialize} and serves {@code echo} after it.
     *
     * @return argv
     */
    public static List<String> exitingLegacyCommand() {
        return List.of("node", legacyScript().toString(), "--exit-on-probe");
    }

    private static Path legacyScript() {
        return ReferenceServer.nodeDir().resolve("legacy-stdio.cjs");
    }
}
