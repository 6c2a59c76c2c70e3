package dev.loommcp.cli;

import picocli.CommandLine;

/** Supplies {@code --version}. */
final class CliVersion implements CommandLine.IVersionProvider {
    /** Creates the provider (picocli does this). */
    CliVersion() {
    }

    /**
     * Returns this build's version: the jar's {@code Implementation-Version}, or {@code dev} when run from
     * classes.
     *
     * @return the version
     */
    static String version() {
        String v = McpCommand.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"mcp (loom-mcp CLI) " + version(),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }
}
