package dev.loommcp.cli;

import dev.loommcp.internal.json.Json;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Where {@link McpCommand} writes, and how: standard output and error with server-supplied control characters
 * escaped (human output), the same streams as they are (JSON and the progress bar), the table width from
 * {@code COLUMNS} and whether to draw a progress bar.
 *
 * <p>The streams are those of the command line (picocli's {@code getOut()} and {@code getErr()}), read on each use.
 * Not thread-safe, like the command; the escaped writers themselves may be shared with the client's handler thread
 * for one note at a time.
 */
final class Output {

    private final Supplier<CommandLine> commandLine;
    private final Function<String, String> environment;

    private PrintWriter safeOut;
    private PrintWriter safeOutRaw;
    private PrintWriter safeErr;
    private PrintWriter safeErrRaw;

    /**
     * Creates the output of one command.
     *
     * @param commandLine the command line whose streams are written (asked on each use: picocli injects the
     *                    {@link CommandSpec} after the command is made)
     * @param environment how to read our environment variables ({@code COLUMNS}, {@code MCP_PROGRESS})
     */
    Output(Supplier<CommandLine> commandLine, Function<String, String> environment) {
        this.commandLine = commandLine;
        this.environment = environment;
    }

    /** Standard output for human output: server-supplied control characters are escaped. */
    PrintWriter out() {
        PrintWriter raw = rawOut();
        if (safeOut == null || safeOutRaw != raw) {
            safeOutRaw = raw;
            safeOut = TerminalText.writer(raw);
        }
        return safeOut;
    }

    /** Standard error for messages: server-supplied control characters are escaped. */
    PrintWriter err() {
        PrintWriter raw = rawErr();
        if (safeErr == null || safeErrRaw != raw) {
            safeErrRaw = raw;
            safeErr = TerminalText.writer(raw);
        }
        return safeErr;
    }

    /** Standard output as it is: for JSON output (escaped as JSON) only. */
    PrintWriter rawOut() {
        return commandLine.get().getOut();
    }

    /** Standard error as it is: for the progress bar only, which draws with carriage returns. */
    PrintWriter rawErr() {
        return commandLine.get().getErr();
    }

    /**
     * Prints a value as pretty JSON on standard output (control characters escaped as JSON) and flushes.
     *
     * @param value plain Java values ({@code Map}, {@code List}, strings, numbers, booleans, {@code null})
     */
    void printJson(Object value) {
        rawOut().println(TerminalText.jsonSafe(Json.writePretty(value)));
        rawOut().flush();
    }

    /** The terminal's width from {@code COLUMNS}, or 0 when unknown. */
    int width() {
        String columns = environment.apply("COLUMNS");
        if (columns != null) {
            try {
                int w = Integer.parseInt(columns.strip());
                if (w >= 20) {
                    return w;
                }
            } catch (NumberFormatException ignored) {
                // fall back to the default
            }
        }
        return 0;
    }

    /**
     * Whether to draw the progress bar: {@code MCP_PROGRESS=always} or {@code never} decide; otherwise only when
     * this process talks to a terminal.
     */
    boolean progressEnabled() {
        String setting = environment.apply("MCP_PROGRESS");
        if (setting != null) {
            switch (setting.strip().toLowerCase(Locale.ROOT)) {
                case "always", "1", "true", "yes" -> {
                    return true;
                }
                case "never", "0", "false", "no" -> {
                    return false;
                }
                default -> {
                    // auto
                }
            }
        }
        return Terminal.isInteractive();
    }

    /** Tells whether this process talks to a terminal. */
    static final class Terminal {
        private Terminal() {
        }

        /**
         * Returns whether there is an interactive console. On JDK 22 and later {@code System.console()} also
         * returns a console when the streams are redirected, so {@code Console.isTerminal()} (called reflectively,
         * since this code targets Java 21) decides there.
         *
         * @return whether the console is a terminal
         */
        static boolean isInteractive() {
            java.io.Console console = System.console();
            if (console == null) {
                return false;
            }
            try {
                Method isTerminal = java.io.Console.class.getMethod("isTerminal");
                return Boolean.TRUE.equals(isTerminal.invoke(console));
            } catch (NoSuchMethodException e) {
                return true;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }
    }
}
