package dev.loommcp.cli;

import java.io.PrintWriter;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The entry point of the {@code mcp} command-line client ({@code java -jar mcp.jar --help}). See
 * {@code docs/cli.md} for the commands, options and exit codes.
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            // the SDK logs through System.Logger; keep its occasional warnings to one line
            System.setProperty("java.util.logging.SimpleFormatter.format", "mcp: %4$s: %5$s%6$s%n");
        }
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            // the JSON Schema validator logs through SLF4J, which has no provider in the jar: no start-up notice
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        System.exit(commandLine(System::getenv).execute(args));
    }

    /**
     * Runs the command line in this JVM, printing to the given writers, and returns the exit code: the in-process
     * form of {@link #main} (used by tests).
     *
     * @param out         standard output
     * @param err         standard error
     * @param environment how to read environment variables
     * @param args        the arguments
     * @return the exit code (see {@code mcp --help})
     */
    static int run(PrintWriter out, PrintWriter err, Function<String, String> environment, String... args) {
        CommandLine cl = commandLine(environment);
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * Builds the configured picocli command line.
     *
     * @param environment how to read environment variables
     * @return the command line, printing to {@code System.out} and {@code System.err} until told otherwise
     */
    static CommandLine commandLine(Function<String, String> environment) {
        CommandLine cl = new CommandLine(new McpCommand(environment));
        cl.setExpandAtFiles(false);
        // repeatable options (--env, --header) are setters called once per occurrence
        cl.setOverwrittenOptionsAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
            return Failures.report(e, commandLine.getOut(), commandLine.getErr(), false, null, null);
        });
        return cl;
    }
}
