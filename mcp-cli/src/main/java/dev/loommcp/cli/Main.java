package dev.loommcp.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import sun.misc.Signal;

/**
 * The entry point of the {@code mcp} command-line client ({@code java -jar mcp.jar --help}). See
 * {@code docs/cli.md} for the commands, options and exit codes.
 */
public final class Main {

    private Main() {
    }

    /**
     * How long a shutdown started by a signal (SIGINT from Ctrl+C, SIGTERM) waits for the running command to stop:
     * the call is interrupted, which cancels it on the wire, and the client is closed (the HTTP session is ended
     * with a DELETE, a stdio server and its process group are ended within the transport's graces, 2 s each).
     */
    static final Duration SIGNAL_CLOSE_BOUND = Duration.ofSeconds(10);

    /**
     * Runs the command line and exits the JVM with its exit code. Standard output and error are flushed on every
     * way out: a normal exit, an error, and a shutdown started by a signal (which first interrupts the running
     * command so that it cancels its request and closes its client, bounded by {@link #SIGNAL_CLOSE_BOUND}; the
     * JVM then exits with the signal's status, 130 for SIGINT). A write to a standard stream whose pipe has no reader
     * any more ends the command quietly with 141 ({@link StandardStreams}), as SIGPIPE ends a Unix tool.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        Thread command = Thread.currentThread();
        // before anything captures System.err (the logger's console handler): a closed pipe on either stream ends
        // the command quietly with 141, as SIGPIPE ends a Unix tool
        StandardStreams.install(command, Charset.defaultCharset());
        // the SDK logs through System.Logger (java.util.logging here): its occasional warnings, which may quote what
        // the server sent, go out as one escaped line each
        for (Handler h : Logger.getLogger("").getHandlers()) {
            h.setFormatter(new LogFormat());
            try {
                h.setEncoding(Charset.defaultCharset().name()); // like our own output, whatever the locale
            } catch (java.io.UnsupportedEncodingException | SecurityException e) {
                // keep the handler's own
            }
        }
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            // the JSON Schema validator logs through SLF4J, which has no provider in the jar: no start-up notice
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        // picocli's own choice of charset (the JVM's default, UTF-8 on JDK 18+), but writers we flush ourselves
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, Charset.defaultCharset()), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
        CountDownLatch finished = new CountDownLatch(1);
        // SIGINT and SIGTERM: the command is stopped first (its call cancelled, its client closed), then the JVM
        // exits, so that the transports' own shutdown safety nets find nothing left to kill mid-conversation
        handleSignal("INT", 130, command, finished, out, err);
        handleSignal("TERM", 143, command, finished, out, err);
        // any other way the JVM is told to shut down (SIGHUP, or a JVM that does not let us handle the signals):
        // the same, from a shutdown hook
        Thread onSignal = new Thread(() -> stopCommand(command, finished, out, err), "mcp-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        int code;
        try {
            code = commandLineEncodingProblem(args, System.getProperty("sun.jnu.encoding"), err)
                    ? ExitCodes.USAGE : run(out, err, System::getenv, args);
        } catch (Throwable t) {
            // run() reports every failure itself; this is only a last resort, still flushed
            t.printStackTrace(err);
            code = ExitCodes.INTERNAL;
        } finally {
            flushAll(out, err);
            finished.countDown();
        }
        if (StandardStreams.pipeClosed()) {
            // the reader of stdout (or stderr) went away, as with `mcp tools | head -2`: quietly, as SIGPIPE would
            code = StandardStreams.EXIT_STATUS;
        } else if ((code == ExitCodes.OK || code == ExitCodes.TOOL_ERROR) && System.out.checkError()) {
            // System.out (under out) drops a failed write and only sets its error flag: a script must not take lost
            // output for success
            err.println("mcp: the output could not be written (standard output is closed, full or a closed pipe)");
            flushAll(out, err);
            code = ExitCodes.TRANSPORT;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            // a signal started the shutdown: the JVM exits with its status once the hook is done
        }
        int signalled = signalStatus;
        System.exit(signalled != 0 ? signalled : code);
    }

    /**
     * How many clients the command has open (between building one and closing it): a signal waits for the command
     * only while there is one to close.
     */
    static final AtomicInteger OPEN_CLIENTS = new AtomicInteger();

    /** The exit status of the signal that stopped the command (128 + its number), or 0. */
    private static volatile int signalStatus;

    /**
     * Set by a second signal: the JVM exits at once, and nothing (the shutdown hook included) waits for the command.
     */
    private static volatile boolean hurry;

    /**
     * Handles a signal by stopping the command ({@link #stopCommand}) and then exiting with {@code status}; a
     * second signal exits at once. When the signal cannot be handled (the JVM keeps a signal that the process
     * inherited as ignored, and some JVMs reserve them), the JVM's default stays: its shutdown runs the hook.
     */
    private static void handleSignal(String name, int status, Thread command, CountDownLatch finished,
                                     PrintWriter out, PrintWriter err) {
        try {
            Signal.handle(new Signal(name), signal -> {
                // runs on a thread of its own: guarded, it must end in an exit whatever happens
                try {
                    if (signalStatus != 0) {
                        hurry = true; // the shutdown hook that System.exit runs must not wait for the command
                        flushAll(out, err);
                        System.exit(status);
                    }
                    signalStatus = status;
                    stopCommand(command, finished, out, err);
                } catch (RuntimeException | Error e) {
                    // exit anyway
                }
                System.exit(status);
            });
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // left to the JVM (and the shutdown hook)
        }
    }

    /**
     * Stops the running command: interrupts it (which cancels its call on the wire), waits at most
     * {@link #SIGNAL_CLOSE_BOUND} for it to close its client and finish (when it has one open and no second signal
     * came), and flushes both writers.
     */
    private static void stopCommand(Thread command, CountDownLatch finished, PrintWriter out, PrintWriter err) {
        command.interrupt();
        try {
            if (!hurry && OPEN_CLIENTS.get() > 0) {
                // nothing to wait for otherwise (reading JSON from stdin, for one, cannot be interrupted)
                finished.await(SIGNAL_CLOSE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushAll(out, err);
    }

    private static void flushAll(PrintWriter out, PrintWriter err) {
        out.flush();
        err.flush();
        System.out.flush();
        System.err.flush();
    }

    /**
     * Refuses a command line that the JVM could not decode. The JVM decodes its arguments (and encodes a child's
     * command line and environment) in the locale's charset ({@code sun.jnu.encoding}, which no {@code -D} option
     * changes); in the C/POSIX locale (no {@code LANG}: containers, cron, CI) that is ASCII, and every other
     * character arrives as U+FFFD. Rather than send the damaged text to the server, this prints what to do and
     * returns {@code true}. A U+FFFD under a UTF-8 charset was typed as such and is accepted.
     *
     * @param args        the arguments as the JVM decoded them
     * @param jnuEncoding the value of {@code sun.jnu.encoding}
     * @param err         where to print the message
     * @return whether the command line was refused (exit {@link ExitCodes#USAGE})
     */
    static boolean commandLineEncodingProblem(String[] args, String jnuEncoding, PrintWriter err) {
        if (isUtf8(jnuEncoding)) {
            return false;
        }
        for (int i = 0; i < args.length; i++) {
            if (args[i].indexOf('\uFFFD') >= 0) {
                err.println("mcp: argument " + (i + 1) + " has characters that this JVM could not decode: it reads its "
                        + "command line as " + jnuEncoding + " (the locale's charset; LANG, LC_ALL and LC_CTYPE "
                        + "name no UTF-8 locale)");
                err.println("mcp: run with a UTF-8 locale (LC_ALL=C.UTF-8), use the mcp-cli/mcp launcher (it picks "
                        + "one), or give JSON arguments on stdin with '-'");
                err.println("Try 'mcp --help' for more information.");
                err.flush();
                return true;
            }
        }
        return false;
    }

    /**
     * Tells whether a charset name is UTF-8.
     *
     * @param charset a charset name, or {@code null}
     * @return whether it names UTF-8
     */
    static boolean isUtf8(String charset) {
        return charset != null && charset.replace("-", "").replace("_", "").equalsIgnoreCase("utf8");
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
        // the commands that are classes; the help lists every command by name (commandList), tasks and logout last
        cl.addSubcommand("call", new CallCommand());
        cl.addSubcommand("request", new RequestCommand());
        cl.addSubcommand("notify", new NotifyCommand());
        cl.addSubcommand("complete", new CompleteCommand());
        SkillCommands.register(cl);
        cl.addSubcommand("tasks", new TasksCommand());
        cl.addSubcommand("logout", new LogoutCommand());
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Main::commandList);
        cl.setExpandAtFiles(false);
        // every option goes through a setter that appends (--env, --header) or refuses a second occurrence
        cl.setOverwrittenOptionsAllowed(true);
        // an option's value may be a command's name: `--server tasks`, `--cwd tools`, `--elicit call` (picocli would
        // otherwise take the value for the command and report the option's parameter missing)
        cl.setAllowSubcommandsAsOptionParameters(true);
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

    /** The commands the help lists last, after the others. */
    private static final List<String> LISTED_LAST = List.of("tasks", "logout");

    /**
     * Renders the help's list of commands: by name (as picocli orders the commands that are methods), then those of
     * {@link #LISTED_LAST}, so that where a command is declared (a method of {@link McpCommand} or a class of its
     * own) does not show.
     *
     * @param help the root command's help
     * @return the list
     */
    private static String commandList(CommandLine.Help help) {
        java.util.Map<String, CommandLine.Help> ordered = new java.util.LinkedHashMap<>();
        new java.util.TreeMap<>(help.subcommands()).forEach((name, sub) -> {
            if (!LISTED_LAST.contains(name)) {
                ordered.put(name, sub);
            }
        });
        for (String name : LISTED_LAST) {
            ordered.put(name, help.subcommands().get(name));
        }
        return help.commandList(ordered);
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
        String commands = String.join(", ", new java.util.TreeSet<>(root.getSubcommands().keySet()));
        boolean atRoot = cl == root;
        if (String.valueOf(e.getMessage()).startsWith("Missing required subcommand")) {
            return atRoot ? "no command given; the commands are: " + commands
                    : cl.getCommandName() + ": no command given; its commands are: "
                            + String.join(", ", new java.util.TreeSet<>(cl.getSubcommands().keySet()));
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

        /**
         * Formats one record. Never throws: it runs on whatever thread logs (the SDK's reader and event threads
         * among them), which must go on whatever happens here; a record that cannot be formatted is shown by its
         * level and the failure's class.
         *
         * @param record the record
         * @return the line, with its line end
         */
        @Override
        public String format(LogRecord record) {
            try {
                return formatRecord(record);
            } catch (RuntimeException | Error e) {
                return "mcp: " + record.getLevel().getName() + ": (a log message that could not be formatted: "
                        + e.getClass().getName() + ")" + System.lineSeparator();
            }
        }

        private String formatRecord(LogRecord record) {
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
