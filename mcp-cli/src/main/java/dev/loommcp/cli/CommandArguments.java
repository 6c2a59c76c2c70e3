package dev.loommcp.cli;

import dev.loommcp.McpClient;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonSyntax;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Turns a command's argument words into what the command sends: the {@code KEY=VALUE} words or the one JSON object
 * ({@code -}: read from stdin) of {@code call}, {@code prompt}, {@code request}, {@code notify} and
 * {@code complete --context}. {@link KeyValues} tells the two forms apart and types the values; this class reads and
 * checks the JSON object, types tool arguments by the tool's input schema as the server lists it, checks prompt
 * arguments against the prompt's as listed, and notes on stderr a tool or prompt the server does not list (its
 * arguments are then inferred, or sent as given). Every problem is a usage error (exit 2) raised on the command line
 * it was made with (the root one, so that the message carries no command name, as for the root's own errors).
 *
 * <p>Not thread-safe: made and used by one command, on the thread that runs it.
 */
final class CommandArguments {

    private final CommandLine commandLine;
    private final Output io;

    /**
     * Creates the arguments' reader for one command.
     *
     * @param commandLine the command line usage errors are raised on
     * @param io          where notes go (stderr)
     */
    CommandArguments(CommandLine commandLine, Output io) {
        this.commandLine = commandLine;
        this.io = io;
    }

    /**
     * Tells the argument forms apart ({@link KeyValues#parse}).
     *
     * @param words the words, possibly {@code null}
     * @param what  what they are, for messages ({@code "the tool arguments"})
     * @return the form
     * @throws ParameterException for a mix of the forms, a word that is not {@code KEY=VALUE}, an empty key or a key
     *                            given twice
     */
    KeyValues.Form form(List<String> words, String what) {
        try {
            return KeyValues.parse(words, what);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Parses a JSON-object argument.
     *
     * @param text the word: {@code null} for an empty object, {@code -} to read it from stdin (strict UTF-8)
     * @param what what it is, for messages ({@code "the params"})
     * @return the object, mutable
     * @throws ParameterException when stdin cannot be read or is not UTF-8, the text is not JSON or not an object
     */
    Map<String, Object> jsonObject(String text, String what) {
        if (text == null) {
            return new LinkedHashMap<>();
        }
        if (text.equals("-")) {
            try {
                // strictly: a malformed byte would otherwise become U+FFFD and be sent as if typed so
                text = JsonSyntax.utf8(System.in.readAllBytes());
            } catch (java.io.IOException e) {
                throw usage("cannot read " + what + " from stdin: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw usage(what + " on stdin are " + e.getMessage());
            }
        }
        Object value;
        try {
            value = Json.readExact(text);
        } catch (IllegalArgumentException e) {
            throw usage(what + " are " + e.getMessage());
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw usage(what + " must be a JSON object, like '{\"name\": \"value\"}'");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) map;
        return m;
    }

    /**
     * The params of {@code request} and {@code notify}: {@code KEY=VALUE} words with inferred values
     * ({@link KeyValues#inferred}), or one JSON object.
     *
     * @param method the method as given, checked here
     * @param words  the words after it, possibly {@code null}
     * @return the params, {@code null} when none are given
     * @throws ParameterException for a blank method or one with control characters, or params that do not parse
     */
    Map<String, Object> rawParams(String method, List<String> words) {
        if (method.isBlank() || method.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw usage("METHOD must name a JSON-RPC method, like tools/list; '" + TerminalText.escape(method)
                    + "' is not one");
        }
        KeyValues.Form form = form(words, "the params");
        if (form.isPairs()) {
            return KeyValues.inferred(form.pairs());
        }
        return form.json() == null ? null : jsonObject(form.json(), "the params");
    }

    /**
     * The JSON-object form of prompt arguments as strings (numbers and booleans as their JSON text).
     *
     * @param text the JSON-object word, {@code -} or {@code null}
     * @return the arguments
     * @throws ParameterException as {@link #jsonObject}, and for a value that is not a string, number or boolean
     */
    Map<String, String> promptStrings(String text) {
        Map<String, String> args = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : jsonObject(text, "the prompt arguments").entrySet()) {
            Object v = e.getValue();
            if (v instanceof String s) {
                args.put(e.getKey(), s);
            } else if (v instanceof Number || v instanceof Boolean) {
                args.put(e.getKey(), Json.write(v));
            } else {
                throw usage("prompt argument '" + e.getKey() + "' must be a string (prompt arguments are strings)");
            }
        }
        return args;
    }

    /**
     * Checks {@code KEY=VALUE} prompt arguments against the prompt's arguments in {@code prompts/list}; a prompt that
     * is not listed is noted on stderr and its arguments are sent as given.
     *
     * @throws ParameterException for a key that is not one of the prompt's arguments
     */
    Map<String, String> promptArguments(McpClient client, String name, KeyValues.Form form)
            throws InterruptedException {
        Prompt prompt = client.listAllPrompts().stream().filter(p -> name.equals(p.name())).findFirst().orElse(null);
        if (prompt == null) {
            io.err().println("mcp: prompt '" + TerminalText.escape(name) + "' is not in the server's prompt list; "
                    + "its arguments are sent as given");
            io.err().flush();
        }
        try {
            return KeyValues.strings(form.pairs(), prompt == null ? null
                    : prompt.arguments() == null ? List.of() : prompt.arguments(),
                    "prompt '" + TerminalText.escape(name) + "'");
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * The arguments of {@code call NAME}: the JSON object given, or the {@code KEY=VALUE} words typed by the tool's
     * input schema ({@link #typedArguments(McpClient, String, KeyValues.Form, boolean)}). With {@code --validate} and
     * the JSON form, a tool the server does not list is noted on stderr (there is nothing to check its result
     * against).
     *
     * @param client   the connected client
     * @param name     the tool's name as given
     * @param form     the argument words
     * @param given    the JSON object of the JSON form, or {@code null} in the {@code KEY=VALUE} form
     * @param validate {@code --validate}
     * @return the arguments to send
     * @throws ParameterException for a key the schema does not allow or a value that does not fit its type
     */
    Map<String, Object> toolArguments(McpClient client, String name, KeyValues.Form form, Map<String, Object> given,
                                      boolean validate) throws InterruptedException {
        Map<String, Object> args = given != null ? given : typedArguments(client, name, form, validate);
        if (validate && !form.isPairs()) {
            noteUnlistedTool(client, name);
        }
        return args;
    }

    /**
     * Types {@code KEY=VALUE} tool arguments by the tool's input schema, read from the tool list (which also serves
     * {@code --validate}). A tool that is not in the list is noted on stderr and its values are inferred.
     *
     * @throws ParameterException for a key the schema does not allow or a value that does not fit its type
     */
    Map<String, Object> typedArguments(McpClient client, String name, KeyValues.Form form, boolean validate)
            throws InterruptedException {
        Tool tool = client.listAllTools().stream().filter(t -> name.equals(t.name())).findFirst().orElse(null);
        if (tool == null) {
            noteUnlisted(name, " its KEY=VALUE arguments are sent as JSON where they parse as JSON, else as strings"
                    + (validate ? "; nothing to validate against" : ""));
        }
        return typedArguments(tool, name, form, commandLine);
    }

    /**
     * Types {@code KEY=VALUE} tool arguments by a tool's input schema ({@link KeyValues#typed}).
     *
     * @param tool        the tool as listed, or {@code null} when it is not known (every value is inferred)
     * @param name        the name the command was given, for messages
     * @param form        the arguments, in the {@code KEY=VALUE} form
     * @param commandLine for the usage error
     * @return the arguments object
     * @throws ParameterException for a key the schema does not allow or a value that does not fit its type
     */
    static Map<String, Object> typedArguments(Tool tool, String name, KeyValues.Form form, CommandLine commandLine) {
        try {
            return KeyValues.typed(form.pairs(), tool == null ? null : tool.inputSchema(),
                    "tool '" + TerminalText.escape(name) + "'");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, e.getMessage());
        }
    }

    /**
     * For {@code call --validate}: reads the tool list (which the client validates against) and notes on stderr when
     * the tool is not in it, since there is then nothing to check.
     */
    private void noteUnlistedTool(McpClient client, String name) throws InterruptedException {
        if (client.listAllTools().stream().noneMatch(t -> name.equals(t.name()))) {
            noteUnlisted(name, " nothing to validate against");
        }
    }

    private void noteUnlisted(String name, String consequence) {
        io.err().println("mcp: tool '" + TerminalText.escape(name) + "' is not in the server's tool list;"
                + consequence);
        io.err().flush();
    }

    /**
     * A usage error on this command line (exit 2).
     *
     * @param message the message, without the {@code mcp: } prefix
     * @return the exception, to throw
     */
    ParameterException usage(String message) {
        return new ParameterException(commandLine, message);
    }
}
