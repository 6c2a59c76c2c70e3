package dev.loommcp.cli;

import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.internal.json.Json;
import dev.loommcp.tasks.McpTaskFailedException;
import dev.loommcp.tasks.McpTaskNotFoundException;
import dev.loommcp.transport.http.AuthChallenge;
import dev.loommcp.transport.http.McpHttpStatusException;
import dev.loommcp.transport.stdio.McpProcessExitedException;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a failed command into its exit code and a message on stderr. Messages come from the SDK's exceptions (which
 * never hold payloads, environment values or header values), the server's JSON-RPC error, and the server's own
 * stderr tail. Each message is cut to {@value TerminalText#MAX_MESSAGE} characters; the caller passes an escaping
 * writer ({@link TerminalText#writer}) as {@code err}, so server-supplied control characters never reach the
 * terminal. Stateless and thread-safe.
 */
final class Failures {

    /** What answers a server's requests for input, in both eras. */
    static final String HANDLER_OPTIONS = "answer elicitation with --elicit ANSWER and roots/list with --root DIR "
            + "(sampling is not offered by mcp)";

    private Failures() {
    }

    /**
     * Reports a failure and returns the exit code for it.
     *
     * @param e          what failed
     * @param out        standard output (gets the JSON-RPC error object in JSON mode)
     * @param err        standard error
     * @param json       whether the command runs in JSON mode
     * @param stderrTail the server's stderr tail we collected, or {@code null} when there is no child process
     * @param timeoutHint the option that bounded what timed out, as {@code --timeout 9s} or
     *                    {@code --connect-timeout, default 30s}, or {@code null}, to name in a timeout message
     * @return the exit code (see {@link ExitCodes})
     */
    static int report(Throwable e, PrintWriter out, PrintWriter err, boolean json, StderrTail stderrTail,
                      String timeoutHint) {
        return report(e, out, err, json, stderrTail, timeoutHint, null);
    }

    /**
     * Reports a failure and returns the exit code for it, knowing the transport (for the hint of a task the server
     * does not know: over stdio every command starts a new server process; over HTTP the server may have forgotten
     * it).
     *
     * @param e           what failed
     * @param out         standard output (gets the JSON-RPC error object in JSON mode)
     * @param err         standard error
     * @param json        whether the command runs in JSON mode
     * @param stderrTail  the server's stderr tail we collected, or {@code null} when there is no child process
     * @param timeoutHint the option that bounded what timed out, or {@code null}; not named for a task whose TTL
     *                    passed (the option did not bound that)
     * @param overStdio   {@code true} over --stdio, {@code false} over --http, {@code null} when unknown
     * @return the exit code (see {@link ExitCodes})
     */
    static int report(Throwable e, PrintWriter out, PrintWriter err, boolean json, StderrTail stderrTail,
                      String timeoutHint, Boolean overStdio) {
        Throwable t = unwrapClosed(e);
        int code;
        boolean showTail = true;
        switch (t) {
            case InterruptedException ie -> {
                err.println("mcp: interrupted");
                code = ExitCodes.INTERRUPTED;
                showTail = false;
            }
            case McpProcessExitedException p -> {
                StringBuilder sb = new StringBuilder("mcp: the server process '").append(p.command()).append('\'');
                if (p.exitCode().isPresent()) {
                    sb.append(" exited with code ").append(p.exitCode().getAsInt());
                    if (p.signal().isPresent()) {
                        sb.append(" (most likely killed by signal ").append(p.signal().getAsInt()).append(')');
                    }
                } else {
                    sb.append(" closed its output");
                }
                err.println(sb);
                String tail = p.stderrTail();
                if (tail.isBlank() && stderrTail != null && !stderrTail.echoes()) {
                    tail = stderrTail.tail();
                }
                if (!tail.isBlank() && (stderrTail == null || !stderrTail.echoes())) {
                    printTail(err, tail);
                }
                code = ExitCodes.TRANSPORT;
                showTail = false;
            }
            case McpHttpStatusException h -> {
                err.println("mcp: connection failed: " + TerminalText.cap(h.getMessage()));
                if (h.statusCode() == 401 || h.statusCode() == 403) {
                    String schemes = String.join(", ", h.wwwAuthenticate().stream().map(AuthChallenge::scheme)
                            .distinct().toList());
                    err.println("mcp: the server wants authorization" + (schemes.isEmpty() ? "" : " (" + schemes
                            + ")") + "; authorize with --oauth (or --client-credentials), or send credentials with "
                            + "--header 'Authorization: ...'");
                }
                code = ExitCodes.TRANSPORT;
                showTail = false;
            }
            case McpTransportException te -> {
                err.println("mcp: connection failed: " + TerminalText.cap(te.getMessage()));
                code = ExitCodes.TRANSPORT;
            }
            case McpClosedException ce -> {
                err.println("mcp: the connection closed: " + TerminalText.cap(ce.getMessage()));
                code = ExitCodes.TRANSPORT;
            }
            case McpRpcException rpc -> {
                if (rpc instanceof McpTaskFailedException failed) {
                    // the task ended failed: the error is the task's, not an answer to a request
                    err.println("mcp: task " + TerminalText.cap(failed.taskId()) + " ended failed with JSON-RPC error "
                            + rpc.code() + ": " + TerminalText.cap(rpc.errorMessage()));
                } else if (rpc instanceof dev.loommcp.skills.SkillReadException sr) {
                    // a skill's file: name it (the request alone does not say which file)
                    err.println("mcp: the server answered " + rpc.method() + " of " + TerminalText.cap(Render.oneLine(
                            sr.fileUri())) + " (skill " + TerminalText.cap(Render.oneLine(sr.skillUri()))
                            + ") with JSON-RPC error " + rpc.code() + ": " + TerminalText.cap(rpc.errorMessage()));
                } else {
                    err.println("mcp: the server answered " + rpc.method() + " with JSON-RPC error " + rpc.code()
                            + ": " + TerminalText.cap(rpc.errorMessage()));
                }
                if (rpc.data() != null && !json) {
                    err.println("mcp: error data: " + TerminalText.cap(Json.write(rpc.data())));
                }
                if (rpc instanceof McpTaskNotFoundException notFound) {
                    err.println("mcp: the server does not know task " + TerminalText.cap(notFound.taskId())
                            + " (unknown or expired" + notFoundHint(overStdio) + ")");
                } else if (rpc.code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY) {
                    err.println("mcp: the server needs the client capabilities "
                            + TerminalText.cap(Json.write(rpc.requiredCapabilities())) + "; " + HANDLER_OPTIONS);
                } else if (rpc.code() == JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION) {
                    // in the modern era, and on a refused legacy initialize (the same code and data)
                    List<String> supported = rpc.supportedVersions();
                    err.println("mcp: the server speaks " + (supported.isEmpty() ? "no version it named"
                            : TerminalText.cap(String.join(", ", supported))) + "; choose the era or version with "
                            + "--protocol");
                }
                if (json) {
                    Map<String, Object> error = new LinkedHashMap<>();
                    error.put("code", rpc.code());
                    error.put("message", rpc.errorMessage());
                    if (rpc.data() != null) {
                        error.put("data", rpc.data());
                    }
                    out.println(TerminalText.jsonSafe(Json.writePretty(Map.of("error", error))));
                }
                code = ExitCodes.RPC_ERROR;
                showTail = false;
            }
            case McpTimeoutException te -> {
                // a task's TTL is the server's bound, not the option's
                boolean ttl = te.getMessage() != null && te.getMessage().contains("passed its TTL");
                err.println("mcp: timed out" + (timeoutHint != null && !ttl ? " (" + timeoutHint + ")" : "") + ": "
                        + TerminalText.cap(te.getMessage()));
                code = ExitCodes.TIMEOUT;
            }
            case McpProtocolException pe -> {
                err.println("mcp: protocol error: " + TerminalText.cap(pe.getMessage()));
                code = ExitCodes.PROTOCOL;
            }
            case McpInputRequiredException ir -> {
                // a modern-era tool, prompt or resource wanted input this command could not give
                err.println("mcp: the server wanted input the command could not give: "
                        + TerminalText.cap(ir.getMessage()));
                err.println("mcp: " + HANDLER_OPTIONS);
                code = ExitCodes.RPC_ERROR;
                showTail = false;
            }
            case McpUnsupportedInEraException ue -> {
                // nothing was sent: the command does not exist in the era the connection speaks
                err.println("mcp: " + TerminalText.cap(ue.getMessage()));
                err.println("mcp: the connection speaks the " + ue.era().name().toLowerCase(Locale.ROOT)
                        + " era; choose another with --protocol");
                code = ExitCodes.USAGE;
                showTail = false;
            }
            case McpCancelledException ce -> {
                // this command's own Ctrl+C or SIGTERM ends as an interrupt (exit 130/143): this came from elsewhere
                err.println("mcp: cancelled (by the server or another client): " + TerminalText.cap(ce.getMessage()));
                code = ExitCodes.RPC_ERROR;
                showTail = false;
            }
            case dev.loommcp.skills.SkillVerificationException sv -> {
                err.println("mcp: skill refused (" + sv.check() + "): " + TerminalText.cap(sv.getMessage()));
                code = ExitCodes.SKILL_REFUSED;
                showTail = false;
            }
            case java.io.UncheckedIOException io -> {
                err.println("mcp: " + TerminalText.cap(io.getMessage()));
                code = ExitCodes.TRANSPORT;
                showTail = false;
            }
            case IllegalArgumentException iae -> {
                err.println("mcp: " + TerminalText.cap(iae.getMessage()));
                code = ExitCodes.USAGE;
                showTail = false;
            }
            case UnsupportedOperationException uoe -> {
                err.println("mcp: " + TerminalText.cap(uoe.getMessage()));
                code = ExitCodes.USAGE;
                showTail = false;
            }
            default -> {
                err.println("mcp: internal error: " + t);
                t.printStackTrace(err);
                code = ExitCodes.INTERNAL;
                showTail = false;
            }
        }
        if (code == ExitCodes.TRANSPORT || code == ExitCodes.PROTOCOL) {
            sizeHint(err, t.getMessage());
        }
        if (showTail && stderrTail != null && !stderrTail.echoes()) {
            String tail = stderrTail.tail();
            if (!tail.isBlank()) {
                printTail(err, tail);
            }
        }
        err.flush();
        out.flush();
        return code;
    }

    /** Why a server may not know a task, by transport. */
    private static String notFoundHint(Boolean overStdio) {
        if (overStdio == null) {
            return "";
        }
        return overStdio ? "; over --stdio every command starts a new server process, which knows no task of an "
                + "earlier one"
                : "; the server may have forgotten it: a legacy server, for one, keeps tasks per HTTP session, and "
                + "every mcp command opens a new session";
    }

    /**
     * A message from the SDK's size limit (stdio's {@code maxMessageBytes}, HTTP's maximum line or body size) names
     * the SDK's setting; the CLI user's knob is {@code --max-message-size}.
     */
    private static void sizeHint(PrintWriter err, String message) {
        if (message != null && (message.contains("maxMessageBytes") || message.contains("than the maximum of"))) {
            err.println("mcp: the server sent a message over the size limit; raise it with --max-message-size SIZE "
                    + "(for example 64MiB)");
        }
    }

    private static void printTail(PrintWriter err, String tail) {
        err.println("mcp: the server's stderr ended with:");
        for (String line : tail.split("\\R")) {
            err.println("  | " + line);
        }
    }

    /**
     * A call that fails because the client closed under it (the server process exited, the HTTP session was lost)
     * reports the transport's failure, which says why.
     */
    private static Throwable unwrapClosed(Throwable e) {
        Throwable t = e;
        for (int depth = 0; t instanceof McpClosedException && t.getCause() != null && depth < 10; depth++) {
            t = t.getCause();
        }
        return t;
    }
}
