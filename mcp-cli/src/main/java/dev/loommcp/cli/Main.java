package dev.loommcp.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

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
        // the SDK logs through System.Logger (java.util.logging here): its occasional warnings, which may quote what
        // the server sent, go out as one escaped line each
        for (Handler h : Logger.getLogger("").getHandlers()) {
            h.setFormatter(new LogFormat());
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
        // every option goes through a setter that appends (--env, --header) or refuses a second occurrence
        cl.setOverwrittenOptionsAllowed(true);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
            return Failures.report(e, commandLine.getOut(), TerminalText.writer(commandLine.getErr()), false, null,
                    null);
        });
        return cl;
    }

    /**
     * Reports a usage error: one line {@code mcp: MESSAGE} and a pointer to {@code --help} (not the whole help).
     *
     * @param e    the error
     * @param args the arguments
     * @return {@link ExitCodes#USAGE}
     */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = TerminalText.writer(cl.getErr());
        err.println("mcp: " + usageMessage(e));
        err.println("Try 'mcp --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * Says what was wrong with the command line in one line: picocli's message, except for an unknown or missing
     * command (named with the list of commands), an unknown option (with picocli's suggestions) and a stray
     * argument.
     *
     * @param e the error
     * @return the message, without the {@code mcp: } prefix
     */
    static String usageMessage(ParameterException e) {
        CommandLine cl = e.getCommandLine();
        CommandLine root = cl;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        String commands = String.join(", ", root.getSubcommands().keySet());
        boolean atRoot = cl == root;
        if (atRoot && String.valueOf(e.getMessage()).startsWith("Missing required subcommand")) {
            return "no command given; the commands are: " + commands;
        }
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().getFirst();
            if (u.isUnknownOption() || (first.startsWith("-") && first.length() > 1)) {
                List<String> suggestions = u.getSuggestions();
                return "unknown option '" + first + "'" + (suggestions.isEmpty() ? ""
                        : " (did you mean " + String.join(" or ", suggestions.subList(0,
                                Math.min(3, suggestions.size()))) + "?)");
            }
            if (atRoot) {
                return "unknown command '" + first + "'; the commands are: " + commands;
            }
            return "unexpected argument '" + first + "' for the " + cl.getCommandName() + " command";
        }
        String message = String.valueOf(e.getMessage());
        return atRoot ? message : cl.getCommandName() + ": " + message;
    }

    /**
     * Formats the SDK's log records as {@code mcp: LEVEL: message} lines, with server-supplied control characters
     * escaped ({@link TerminalText#escape}). Thread-safe.
     */
    static final class LogFormat extends Formatter {
        /** Creates the formatter. */
        LogFormat() {
        }

        @Override
        public String format(LogRecord record) {
            StringBuilder sb = new StringBuilder("mcp: ").append(record.getLevel().getName()).append(": ")
                    .append(formatMessage(record));
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                sb.append(System.lineSeparator()).append(trace.toString().stripTrailing());
            }
            return TerminalText.escape(sb.toString()) + System.lineSeparator();
        }
    }
}
