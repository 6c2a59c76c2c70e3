package dev.loommcp.hosts;

import dev.loommcp.internal.json.JsonSyntax;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an {@code mcpServers} file in the dialect of each host that writes one: Claude Desktop
 * ({@code claude_desktop_config.json}), Cursor ({@code ~/.cursor/mcp.json}, {@code .cursor/mcp.json}) and VS Code
 * ({@code .vscode/mcp.json}, top-level {@code servers} and {@code inputs}):
 *
 * <pre>{@code
 * {
 *   // comments and trailing commas are allowed (JSONC), as the hosts' editors allow them
 *   "inputs": [ { "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true } ],
 *   "mcpServers": {
 *     "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"],
 *                 "env": { "LOG_LEVEL": "debug" }, "envFile": "${workspaceFolder}/.env", "cwd": "/tmp" },
 *     "github": { "url": "https://api.example.com/mcp",
 *                 "headers": { "Authorization": "Bearer ${input:gh-token}" } },
 *     "legacy": { "type": "sse", "url": "http://127.0.0.1:3001/sse" },
 *   },
 * }
 * }</pre>
 *
 * <p>Each entry is a stdio server ({@code command}, optional {@code args}, {@code env}, {@code envFile},
 * {@code cwd}), a Streamable HTTP server ({@code url}, optional {@code headers}) or, with {@code "type": "sse"}, an
 * HTTP+SSE server of protocol 2024-11-05 ({@link SseServerConfig}); an optional {@code type} ({@code stdio},
 * {@code http}, {@code streamable-http}, {@code sse}) must agree with the fields. The top-level key may also be
 * {@code servers} (VS Code's name). An entry with {@code "disabled": true} is skipped; other fields are ignored
 * (hosts keep their own settings there). Entries keep the file's order. Server names are as the host allows them
 * (spaces, letters of any script; see {@link ServerConfig#checkName}).
 *
 * <p>The text is JSON with comments ({@code //}, {@code /* *}{@code /}) and trailing commas allowed; a leading byte
 * order mark is skipped.
 *
 * <p>In {@code command}, {@code args}, {@code env} values, {@code envFile}, {@code cwd}, {@code url} and
 * {@code headers} values:
 * <ul>
 *   <li>{@code ${NAME}} (or {@code ${env:NAME}}) is the environment variable {@code NAME}, and
 *       {@code ${NAME:-fallback}} its value or, when unset or empty, the fallback. {@code NAME} is letters, digits
 *       and {@code _}. A variable that is not set (and has no fallback) is an error.</li>
 *   <li>{@code ${workspaceFolder}} is the workspace directory the caller gives
 *       ({@link Options#withWorkspaceFolder}; an error when none was given), {@code ${workspaceFolderBasename}} its
 *       last name, {@code ${userHome}} the user's home directory, {@code ${pathSeparator}} and {@code ${/}} the
 *       platform's file separator (VS Code's and Cursor's predefined variables; they take precedence over
 *       environment variables of the same name, which {@code ${env:NAME}} still reaches).</li>
 *   <li>{@code ${input:id}} is the answer to the input {@code id} of the top-level {@code inputs} array (VS Code's
 *       {@code promptString}: {@code id}, {@code description}, {@code password}, optional {@code default}), asked
 *       through the {@linkplain Options#withInputs input prompt} once per read and only when an enabled server
 *       uses it; without a prompt it is an error naming the input.</li>
 *   <li>{@code $$} is a literal {@code $} (in a fallback too), and a {@code $} followed by anything else is kept as
 *       it is. A fallback is text: a reference inside it ({@code ${A:-${B}}}) is not supported and refused, as is
 *       every other malformed reference (an empty name, a reference without its closing brace, other characters or
 *       shell operators such as {@code ${A:=x}}), so that no reference ever reaches a server unresolved.</li>
 * </ul>
 * Resolved values and answers are never logged or put into messages.
 *
 * <p>{@code envFile} (VS Code, Cursor) names a file of {@code NAME=VALUE} lines ({@code #} comments, blank lines,
 * an optional {@code export}, values optionally in single or double quotes) whose variables the server gets;
 * {@code env} wins over it. A relative path is resolved against the process's working directory. {@code cwd} must
 * be an existing directory, and a {@code url} must not carry user info ({@code user:password@}): both are refused
 * here, not when the server starts.
 *
 * <p>Every problem is an {@link IllegalArgumentException} whose message starts with the file's name and names the
 * server and the field, for example {@code mcp.json: server 'github': headers.Authorization: ${GITHUB_TOKEN} is not
 * set}. Stateless and thread-safe (the prompt is called on the reading thread).
 */
public final class McpServersFile {

    /** The largest file read ({@code mcpServers} file or {@code envFile}): 1 MiB. */
    static final int MAX_FILE_BYTES = 1 << 20;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private McpServersFile() {
    }

    /**
     * Answers the {@code inputs} a file uses ({@code ${input:id}}), for example by asking the user on a terminal. A
     * public functional interface so that each host asks its own way; called on the reading thread, once per input
     * and read, only for inputs an enabled server uses.
     */
    @FunctionalInterface
    public interface InputPrompt {

        /** The prompt of a reader that has none: every input is refused with an error naming it. */
        InputPrompt NONE = input -> null;

        /**
         * Returns the answer to an input.
         *
         * @param input what to ask: its id, description, whether it is a password (not to be echoed), its default
         * @return the answer (may be empty), or {@code null} when there is none: the read fails with an error naming
         *         the input
         * @throws IllegalArgumentException to refuse with a reason (the read fails with it, prefixed with the file,
         *                                  the server and the field); never put the answer in it
         */
        @Nullable String answer(Input input);
    }

    /**
     * One entry of a file's {@code inputs} array (VS Code's {@code promptString}).
     *
     * @param id           the id that {@code ${input:id}} references
     * @param description  what to show the user; the id when the file gives none
     * @param password     whether the answer is secret (not to be echoed)
     * @param defaultValue the file's {@code default}, or {@code null}
     */
    public record Input(String id, String description, boolean password, @Nullable String defaultValue) {

        /**
         * Checks the values.
         *
         * @throws NullPointerException if {@code id} or {@code description} is {@code null}
         */
        public Input {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(description, "description");
        }
    }

    /**
     * What references resolve to: the environment, the input prompt, the workspace folder and the user's home.
     * Immutable; the {@code with} methods return a copy.
     *
     * @param environment     returns a variable's value, or {@code null} when it is not set
     * @param inputs          answers {@code ${input:id}}
     * @param workspaceFolder what {@code ${workspaceFolder}} is, or {@code null} when there is none (then the
     *                        reference is an error)
     * @param userHome        what {@code ${userHome}} is
     */
    public record Options(Function<String, @Nullable String> environment, InputPrompt inputs,
                          @Nullable Path workspaceFolder, Path userHome) {

        /**
         * Checks the values.
         *
         * @throws NullPointerException if {@code environment}, {@code inputs} or {@code userHome} is {@code null}
         */
        public Options {
            Objects.requireNonNull(environment, "environment");
            Objects.requireNonNull(inputs, "inputs");
            Objects.requireNonNull(userHome, "userHome");
        }

        /**
         * The defaults: this process's environment, no input prompt ({@link InputPrompt#NONE}), no workspace
         * folder, and the {@code user.home} system property as the home directory.
         *
         * @return the options
         */
        public static Options defaults() {
            return new Options(System::getenv, InputPrompt.NONE, null, Path.of(System.getProperty("user.home", "")));
        }

        /**
         * Returns these options with another environment.
         *
         * @param lookup returns a variable's value, or {@code null} when it is not set
         * @return a copy
         */
        public Options withEnvironment(Function<String, @Nullable String> lookup) {
            return new Options(lookup, inputs, workspaceFolder, userHome);
        }

        /**
         * Returns these options with an input prompt.
         *
         * @param prompt answers {@code ${input:id}}
         * @return a copy
         */
        public Options withInputs(InputPrompt prompt) {
            return new Options(environment, prompt, workspaceFolder, userHome);
        }

        /**
         * Returns these options with a workspace folder ({@code ${workspaceFolder}}).
         *
         * @param dir the folder, or {@code null} for none
         * @return a copy
         */
        public Options withWorkspaceFolder(@Nullable Path dir) {
            return new Options(environment, inputs, dir, userHome);
        }

        /**
         * Returns these options with another home directory ({@code ${userHome}}).
         *
         * @param dir the directory
         * @return a copy
         */
        public Options withUserHome(Path dir) {
            return new Options(environment, inputs, workspaceFolder, dir);
        }
    }

    /**
     * Reads a file with the {@linkplain Options#defaults() default options}: {@code ${NAME}} from this process's
     * environment, no input prompt, no workspace folder.
     *
     * @param file the file
     * @return the servers, in the file's order (disabled ones left out)
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if the file is not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> read(Path file) throws IOException {
        return read(file, Options.defaults());
    }

    /**
     * Reads a file, resolving {@code ${NAME}} with the given lookup (other options the defaults).
     *
     * @param file        the file
     * @param environment returns a variable's value, or {@code null} when it is not set
     * @return the servers, in the file's order (disabled ones left out)
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if the file is not UTF-8 (RFC 8259 section 8.1; a leading byte order mark is
     *                                  skipped) or not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> read(Path file,
                                          Function<String, @Nullable String> environment) throws IOException {
        return read(file, Options.defaults().withEnvironment(environment));
    }

    /**
     * Reads a file, resolving references with the given options.
     *
     * @param file    the file
     * @param options the environment, input prompt, workspace folder and home directory
     * @return the servers, in the file's order (disabled ones left out)
     * @throws IOException              if the file (or an {@code envFile}) cannot be read
     * @throws IllegalArgumentException if the file is not UTF-8 (RFC 8259 section 8.1; a leading byte order mark is
     *                                  skipped) or not a valid {@code mcpServers} file, or an input has no answer
     *                                  (the message says where)
     */
    public static List<ServerConfig> read(Path file, Options options) throws IOException {
        Path fileName = file.getFileName();
        String source = fileName == null ? file.toString() : fileName.toString();
        String text;
        try {
            text = JsonSyntax.utf8(readAtMost(file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        try {
            return parse(text, source, options);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Reads a file of this format (an {@code mcpServers} file, an {@code envFile}), refusing one larger than
     * {@link #MAX_FILE_BYTES}: reads at most one byte more than that, so that a huge file or a device such as
     * {@code /dev/zero} ends at once.
     *
     * @throws IllegalArgumentException if the file is larger (the message gives the limit; the caller adds which
     *                                  file)
     */
    static byte[] readAtMost(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new IllegalArgumentException("larger than " + MAX_FILE_BYTES + " bytes (1 MiB), the "
                    + "limit of a configuration file");
        }
        return bytes;
    }

    /**
     * Parses the text of an {@code mcpServers} file, resolving {@code ${NAME}} with the given lookup (other options
     * the defaults).
     *
     * @param json        the JSON text
     * @param source      the name that starts every error message (the file's name)
     * @param environment returns a variable's value, or {@code null} when it is not set
     * @return the servers, in order (disabled ones left out)
     * @throws IllegalArgumentException if the text is not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> parse(String json, String source, Function<String, @Nullable String> environment) {
        return parse(json, source, Options.defaults().withEnvironment(environment));
    }

    /**
     * Parses the text of an {@code mcpServers} file.
     *
     * @param json    the JSON text (a leading byte order mark is skipped)
     * @param source  the name that starts every error message (the file's name)
     * @param options the environment, input prompt, workspace folder and home directory
     * @return the servers, in order (disabled ones left out)
     * @throws IllegalArgumentException if the text is not a valid {@code mcpServers} file, or an input has no
     *                                  answer (the message says where)
     * @throws UncheckedIOException     if an {@code envFile} cannot be read
     */
    public static List<ServerConfig> parse(String json, String source, Options options) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(options, "options");
        if (json.startsWith("\uFEFF")) {
            json = json.substring(1);
        }
        Object root;
        try {
            root = MAPPER.readValue(json, Object.class);
        } catch (JacksonException e) {
            // where and what in words: the parser's own message names its internals (feature flags, token types)
            throw new IllegalArgumentException(source + ": not valid JSON: " + JsonSyntax.describe(e), e);
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new IllegalArgumentException(source + ": expected a JSON object with an \"mcpServers\" object");
        }
        if (top.containsKey("mcpServers") && top.containsKey("servers")) {
            throw new IllegalArgumentException(source + ": has both \"mcpServers\" and \"servers\"; give one (the "
                    + "servers of the other would be left out)");
        }
        Object servers = top.containsKey("mcpServers") ? top.get("mcpServers") : top.get("servers");
        if (!(servers instanceof Map<?, ?> entries)) {
            throw new IllegalArgumentException(source + ": expected an \"mcpServers\" object (name -> server)"
                    + (top.containsKey("mcpServers") ? ", found " + kind(servers) : ""));
        }
        Answers answers = new Answers(source, inputs(top.get("inputs"), source), options.inputs());
        List<ServerConfig> out = new ArrayList<>();
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            String name = String.valueOf(e.getKey());
            String where = source + ": server '" + printable(name) + "': ";
            try {
                ServerConfig.checkName(name);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(source + ": " + bad.getMessage(), bad);
            }
            if (!(e.getValue() instanceof Map<?, ?> entry)) {
                throw new IllegalArgumentException(where + "expected an object, found " + kind(e.getValue()));
            }
            if (entry.containsKey("disabled") && !(entry.get("disabled") instanceof Boolean)) {
                // "true" as a string would leave the server enabled
                throw new IllegalArgumentException(where + "disabled: expected true or false, found "
                        + kind(entry.get("disabled")));
            }
            if (Boolean.TRUE.equals(entry.get("disabled"))) {
                continue;
            }
            out.add(server(name, entry, where, new Resolver(where, options, answers)));
        }
        return List.copyOf(out);
    }

    /** The {@code inputs} array: id to definition, checked for shape (types are checked when one is used). */
    private static Map<String, Map<?, ?>> inputs(Object value, String source) {
        Map<String, Map<?, ?>> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(source + ": inputs: expected an array, found " + kind(value));
        }
        for (int i = 0; i < list.size(); i++) {
            String where = source + ": inputs[" + i + "]: ";
            if (!(list.get(i) instanceof Map<?, ?> input)) {
                throw new IllegalArgumentException(where + "expected an object, found " + kind(list.get(i)));
            }
            if (!(input.get("id") instanceof String id) || id.isEmpty()) {
                throw new IllegalArgumentException(where + "id: expected a non-empty string");
            }
            for (String field : List.of("type", "description", "default")) {
                if (input.containsKey(field) && !(input.get(field) instanceof String)) {
                    throw new IllegalArgumentException(where + field + ": expected a string, found "
                            + kind(input.get(field)));
                }
            }
            if (input.containsKey("password") && !(input.get("password") instanceof Boolean)) {
                // "true" as a string would show a secret as it is typed
                throw new IllegalArgumentException(where + "password: expected true or false, found "
                        + kind(input.get("password")));
            }
            if (out.put(id, input) != null) {
                throw new IllegalArgumentException(where + "the id '" + printable(id) + "' is given twice");
            }
        }
        return out;
    }

    private static ServerConfig server(String name, Map<?, ?> entry, String where, Resolver r) {
        Object type = entry.get("type");
        if (type != null && !(type instanceof String)) {
            throw new IllegalArgumentException(where + "type: expected a string, found " + kind(type));
        }
        boolean hasCommand = entry.containsKey("command");
        boolean hasUrl = entry.containsKey("url");
        if (hasCommand && hasUrl) {
            throw new IllegalArgumentException(where + "has both \"command\" (stdio) and \"url\" (HTTP); give one");
        }
        boolean sse = false;
        if (type != null) {
            switch ((String) type) {
                case "stdio" -> {
                    if (!hasCommand) {
                        throw new IllegalArgumentException(where + "type is stdio but there is no \"command\"");
                    }
                }
                case "http", "streamable-http", "streamableHttp", "sse" -> {
                    if (!hasUrl) {
                        throw new IllegalArgumentException(where + "type is " + type + " but there is no \"url\"");
                    }
                    sse = type.equals("sse");
                }
                default -> throw new IllegalArgumentException(where + "type: unknown transport '"
                        + printable((String) type) + "' (expected stdio, http or sse)");
            }
        }
        if (hasCommand) {
            return stdio(name, entry, where, r);
        }
        if (hasUrl) {
            for (String stdioOnly : List.of("args", "env", "envFile", "cwd")) {
                if (entry.containsKey(stdioOnly)) {
                    throw new IllegalArgumentException(where + stdioOnly + " applies to stdio servers (command) only");
                }
            }
            String url = r.string(entry.get("url"), "url");
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException bad) {
                throw new IllegalArgumentException(where + "url: not a valid URL (" + bad.getReason() + ")", bad);
            }
            if (uri.getRawUserInfo() != null) {
                // not shown: the user info is a password
                throw new IllegalArgumentException(where + "url: must not carry user info (user:password@); send "
                        + "credentials in \"headers\" (Authorization) instead");
            }
            Map<String, String> headers = r.stringMap(entry.get("headers"), "headers");
            headers.forEach((header, value) -> {
                String problem = Endpoints.headerProblem(header, value);
                if (problem != null) {
                    throw new IllegalArgumentException(where + "headers." + printable(header) + ": " + problem);
                }
            });
            try {
                // shown as written: a secret that a reference put in the path never shows
                String written = (String) entry.get("url");
                return sse ? new SseServerConfig(name, uri, headers, written)
                        : new HttpServerConfig(name, uri, headers, written);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(where + "url: expected an http:// or https:// URL with a host, "
                        + "or a unix: socket endpoint",
                        bad);
            }
        }
        throw new IllegalArgumentException(where + "needs \"command\" (a stdio server) or \"url\" (an HTTP server)");
    }

    private static StdioServerConfig stdio(String name, Map<?, ?> entry, String where, Resolver r) {
        for (String httpOnly : List.of("headers")) {
            if (entry.containsKey(httpOnly)) {
                throw new IllegalArgumentException(where + httpOnly + " applies to HTTP servers (url) only");
            }
        }
        String command = r.string(entry.get("command"), "command");
        if (command.isBlank()) {
            throw new IllegalArgumentException(where + "command: is empty");
        }
        List<String> args = new ArrayList<>();
        Object rawArgs = entry.get("args");
        if (rawArgs != null) {
            if (!(rawArgs instanceof List<?> list)) {
                throw new IllegalArgumentException(where + "args: expected an array of strings, found "
                        + kind(rawArgs));
            }
            for (int i = 0; i < list.size(); i++) {
                args.add(r.string(list.get(i), "args[" + i + "]"));
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        if (entry.get("envFile") != null) {
            env.putAll(EnvFile.read(r.path(entry.get("envFile"), "envFile"), printable((String) entry.get("envFile")),
                    where + "envFile: "));
        }
        env.putAll(r.stringMap(entry.get("env"), "env"));
        Path cwd = null;
        if (entry.get("cwd") != null) {
            cwd = r.path(entry.get("cwd"), "cwd");
            if (!Files.isDirectory(cwd)) {
                // the text as the file wrote it: a resolved value is never shown
                throw new IllegalArgumentException(where + "cwd: '" + printable((String) entry.get("cwd"))
                        + "' is not an existing directory");
            }
        }
        try {
            return new StdioServerConfig(name, command, args, env, cwd);
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException(where.substring(0, where.indexOf(": ") + 2) + bad.getMessage(), bad);
        }
    }

    /** The answers to the file's inputs, asked once each per read. */
    private static final class Answers {
        private final String source;
        private final Map<String, Map<?, ?>> definitions;
        private final InputPrompt prompt;
        private final Map<String, String> given = new HashMap<>();

        Answers(String source, Map<String, Map<?, ?>> definitions, InputPrompt prompt) {
            this.source = source;
            this.definitions = definitions;
            this.prompt = prompt;
        }

        /** The answer to input {@code id}; {@code at} (file, server, field) starts every message. */
        String answer(String id, String at) {
            String known = given.get(id);
            if (known != null) {
                return known;
            }
            Map<?, ?> definition = definitions.get(id);
            String ref = "${input:" + printable(id) + "}";
            if (definition == null) {
                throw new IllegalArgumentException(at + ref + ": there is no input '" + printable(id) + "' in "
                        + source + "'s \"inputs\"");
            }
            Object type = definition.get("type");
            if (type != null && !"promptString".equals(type)) {
                throw new IllegalArgumentException(at + ref + ": input type " + (type instanceof String t
                        ? "'" + printable(t) + "'" : kind(type)) + " is not supported (only promptString)");
            }
            Object description = definition.get("description");
            Object password = definition.get("password");
            Object fallback = definition.get("default");
            Input input = new Input(id, description instanceof String d && !d.isBlank() ? d : id,
                    Boolean.TRUE.equals(password), fallback instanceof String f ? f : null);
            String answer;
            try {
                answer = prompt.answer(input);
            } catch (IllegalArgumentException refused) {
                throw new IllegalArgumentException(at + ref + ": " + refused.getMessage(), refused);
            }
            if (answer == null) {
                throw new IllegalArgumentException(at + ref + " (" + printable(input.description()) + ") has no "
                        + "answer: this reader has no input prompt (McpServersFile.Options.withInputs)");
            }
            given.put(id, answer);
            return answer;
        }
    }

    /** Resolves references in the values of one entry; never puts a value into a message. */
    private record Resolver(String where, Options options, Answers answers) {

        String string(Object value, String field) {
            if (!(value instanceof String s)) {
                throw new IllegalArgumentException(where + field + ": expected a string, found " + kind(value));
            }
            return resolve(s, field);
        }

        Path path(Object value, String field) {
            String dir = string(value, field);
            try {
                return Path.of(dir);
            } catch (InvalidPathException bad) {
                throw new IllegalArgumentException(where + field + ": not a valid path", bad);
            }
        }

        Map<String, String> stringMap(Object value, String field) {
            Map<String, String> out = new LinkedHashMap<>();
            if (value == null) {
                return out;
            }
            if (!(value instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(where + field + ": expected an object of strings, found "
                        + kind(value));
            }
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                if (key.isEmpty()) {
                    throw new IllegalArgumentException(where + field + ": has an empty name");
                }
                out.put(key, string(e.getValue(), field + "." + printable(key)));
            }
            return out;
        }

        String resolve(String text, String field) {
            return expand(text, field, false);
        }

        /**
         * Replaces the references in {@code text}; {@code inFallback} when {@code text} is the fallback of a
         * reference, where a further reference is refused (nested references are not supported).
         */
        private String expand(String text, String field, boolean inFallback) {
            StringBuilder sb = new StringBuilder();
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '$') {
                    sb.append('$');
                    i += 2;
                } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                    if (inFallback) {
                        throw new IllegalArgumentException(where + field + ": a reference inside the fallback of "
                                + "another (${NAME:-${OTHER}}) is not supported; give the fallback as text (write "
                                + "$$ for a literal $)");
                    }
                    int end = text.indexOf('}', i + 2);
                    if (end < 0) {
                        throw new IllegalArgumentException(where + field + ": '${' without a closing '}'");
                    }
                    sb.append(variable(text.substring(i + 2, end), field));
                    i = end + 1;
                } else {
                    sb.append(c);
                    i++;
                }
            }
            return sb.toString();
        }

        private String variable(String reference, String field) {
            if (reference.equals("/")) {
                return File.separator;
            }
            if (reference.startsWith("input:")) {
                String id = reference.substring(6);
                if (id.isEmpty() || !id.chars().allMatch(ch -> ch == '_' || ch == '-' || ch == '.'
                        || Character.isLetterOrDigit(ch))) {
                    throw new IllegalArgumentException(where + field + ": '${" + printable(reference)
                            + "}' is not an input reference (expected ${input:ID}, ID of letters, digits, '-', '_' "
                            + "and '.')");
                }
                return answers.answer(id, where + field + ": ");
            }
            boolean env = reference.startsWith("env:");
            String name = env ? reference.substring(4) : reference;
            String fallback = null;
            int dash = name.indexOf(":-");
            if (dash >= 0) {
                fallback = name.substring(dash + 2);
                name = name.substring(0, dash);
            }
            if (name.isEmpty() || !name.chars().allMatch(ch -> ch == '_' || Character.isLetterOrDigit(ch))) {
                throw new IllegalArgumentException(where + field + ": '${" + printable(reference)
                        + "}' is not a variable reference (expected ${NAME}, ${env:NAME}, ${NAME:-fallback}, "
                        + "${input:ID}, ${workspaceFolder} or ${userHome}; NAME of letters, digits and '_')");
            }
            if (fallback != null && fallback.contains("${")) {
                // the reference ended at the first '}', inside the nested one: refuse rather than send a piece
                // of it as the value
                expand(fallback, field, true);
            }
            String value = env ? options.environment().apply(name) : predefined(name, fallback != null, field);
            if (value == null && !env && !PREDEFINED.contains(name)) {
                value = options.environment().apply(name);
            }
            if (value == null || (value.isEmpty() && fallback != null)) {
                if (fallback != null) {
                    return expand(fallback, field, true);
                }
                throw new IllegalArgumentException(where + field + ": ${" + name
                        + "} is not set in the environment");
            }
            return value;
        }

        /** A predefined variable's value; {@code null} for other names, or a workspace folder not given. */
        private String predefined(String name, boolean hasFallback, String field) {
            Path workspace = options.workspaceFolder();
            return switch (name) {
                case "userHome" -> options.userHome().toString();
                case "pathSeparator" -> File.separator;
                case "workspaceFolder", "workspaceFolderBasename" -> {
                    if (workspace == null) {
                        if (hasFallback) {
                            yield null;
                        }
                        throw new IllegalArgumentException(where + field + ": ${" + name + "}: no workspace folder "
                                + "was given (McpServersFile.Options.withWorkspaceFolder; the mcp CLI gives its "
                                + "current directory)");
                    }
                    Path base = workspace.getFileName();
                    yield name.equals("workspaceFolder") ? workspace.toString()
                            : base == null ? workspace.toString() : base.toString();
                }
                default -> null;
            };
        }
    }

    /** The predefined variables of VS Code and Cursor that a file may use. */
    private static final java.util.Set<String> PREDEFINED = java.util.Set.of("userHome", "pathSeparator",
            "workspaceFolder", "workspaceFolderBasename");

    private static String kind(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }

    /** Keys may be shown, but not with control characters that would garble a terminal. */
    static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
