package dev.loommcp.hosts;

import dev.loommcp.internal.json.JsonSyntax;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an {@code mcpServers} file, the format Claude Desktop, Cursor and VS Code share:
 *
 * <pre>{@code
 * {
 *   "mcpServers": {
 *     "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
 *                 "env": { "LOG_LEVEL": "debug" }, "cwd": "/tmp" },
 *     "github": { "url": "https://api.example.com/mcp",
 *                 "headers": { "Authorization": "Bearer ${GITHUB_TOKEN}" } }
 *   }
 * }
 * }</pre>
 *
 * <p>Each entry is a stdio server ({@code command}, optional {@code args}, {@code env}, {@code cwd}) or a Streamable
 * HTTP server ({@code url}, optional {@code headers}); an optional {@code type} ({@code stdio}, {@code http},
 * {@code streamable-http}) must agree with the fields. The top-level key may also be {@code servers} (VS Code's
 * name). An entry with {@code "disabled": true} is skipped; other fields are ignored (hosts keep their own settings
 * there). Entries keep the file's order.
 *
 * <p>In {@code command}, {@code args}, {@code env} values, {@code cwd}, {@code url} and {@code headers} values,
 * {@code ${NAME}} (or {@code ${env:NAME}}) is replaced by the environment variable {@code NAME}, and
 * {@code ${NAME:-fallback}} by its value or, when unset or empty, the fallback; {@code $$} is a literal {@code $}
 * (in a fallback too), and a {@code $} followed by anything else is kept as it is. {@code NAME} is letters, digits
 * and {@code _}. A fallback is text: a reference inside it ({@code ${A:-${B}}}) is not supported and refused, as is
 * every other malformed reference (an empty name, a reference without its closing brace, other characters or shell
 * operators such as {@code ${A:=x}}), so that no reference ever reaches a server unresolved. A variable
 * that is not set (and has no fallback) is an error naming the server, the field and the variable, never a value.
 * Resolved values are never logged or put into messages.
 *
 * <p>Every problem is an {@link IllegalArgumentException} whose message starts with the file's name and names the
 * server and the field, for example {@code mcp.json: server 'github': headers.Authorization: ${GITHUB_TOKEN} is not
 * set}. Stateless and thread-safe.
 */
public final class McpServersFile {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private McpServersFile() {
    }

    /**
     * Reads a file, resolving {@code ${NAME}} from this process's environment.
     *
     * @param file the file
     * @return the servers, in the file's order (disabled ones left out)
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if the file is not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> read(Path file) throws IOException {
        return read(file, System::getenv);
    }

    /**
     * Reads a file, resolving {@code ${NAME}} with the given lookup.
     *
     * @param file        the file
     * @param environment returns a variable's value, or {@code null} when it is not set
     * @return the servers, in the file's order (disabled ones left out)
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if the file is not UTF-8 (RFC 8259 section 8.1; a leading byte order mark is
     *                                  skipped) or not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> read(Path file, Function<String, String> environment) throws IOException {
        Path fileName = file.getFileName();
        String source = fileName == null ? file.toString() : fileName.toString();
        String text;
        try {
            text = JsonSyntax.utf8(Files.readAllBytes(file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        return parse(text, source, environment);
    }

    /**
     * Parses the text of an {@code mcpServers} file.
     *
     * @param json        the JSON text
     * @param source      the name that starts every error message (the file's name)
     * @param environment returns a variable's value, or {@code null} when it is not set
     * @return the servers, in order (disabled ones left out)
     * @throws IllegalArgumentException if the text is not a valid {@code mcpServers} file (the message says where)
     */
    public static List<ServerConfig> parse(String json, String source, Function<String, String> environment) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(environment, "environment");
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
        Object servers = top.containsKey("mcpServers") ? top.get("mcpServers") : top.get("servers");
        if (!(servers instanceof Map<?, ?> entries)) {
            throw new IllegalArgumentException(source + ": expected an \"mcpServers\" object (name -> server)"
                    + (top.containsKey("mcpServers") ? ", found " + kind(servers) : ""));
        }
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
            if (Boolean.TRUE.equals(entry.get("disabled"))) {
                continue;
            }
            out.add(server(name, entry, where, environment));
        }
        return List.copyOf(out);
    }

    private static ServerConfig server(String name, Map<?, ?> entry, String where,
                                       Function<String, String> environment) {
        Object type = entry.get("type");
        if (type != null && !(type instanceof String)) {
            throw new IllegalArgumentException(where + "type: expected a string, found " + kind(type));
        }
        boolean hasCommand = entry.containsKey("command");
        boolean hasUrl = entry.containsKey("url");
        if (hasCommand && hasUrl) {
            throw new IllegalArgumentException(where + "has both \"command\" (stdio) and \"url\" (HTTP); give one");
        }
        if (type != null) {
            switch ((String) type) {
                case "stdio" -> {
                    if (!hasCommand) {
                        throw new IllegalArgumentException(where + "type is stdio but there is no \"command\"");
                    }
                }
                case "http", "streamable-http", "streamableHttp" -> {
                    if (!hasUrl) {
                        throw new IllegalArgumentException(where + "type is " + type + " but there is no \"url\"");
                    }
                }
                case "sse" -> throw new IllegalArgumentException(where + "type: the old HTTP+SSE transport is not "
                        + "supported; use the server's Streamable HTTP endpoint (type http)");
                default -> throw new IllegalArgumentException(where + "type: unknown transport '"
                        + printable((String) type) + "' (expected stdio or http)");
            }
        }
        Resolver r = new Resolver(where, environment);
        if (hasCommand) {
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
            Map<String, String> env = r.stringMap(entry.get("env"), "env");
            Path cwd = null;
            if (entry.get("cwd") != null) {
                String dir = r.string(entry.get("cwd"), "cwd");
                try {
                    cwd = Path.of(dir);
                } catch (java.nio.file.InvalidPathException bad) {
                    throw new IllegalArgumentException(where + "cwd: not a valid path", bad);
                }
            }
            try {
                return new StdioServerConfig(name, command, args, env, cwd);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(where.substring(0, where.indexOf(": ") + 2) + bad.getMessage(),
                        bad);
            }
        }
        if (hasUrl) {
            for (String stdioOnly : List.of("args", "env", "cwd")) {
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
            Map<String, String> headers = r.stringMap(entry.get("headers"), "headers");
            try {
                return new HttpServerConfig(name, uri, headers);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(where + "url: expected an http:// or https:// URL with a host, "
                        + "or a unix: socket endpoint",
                        bad);
            }
        }
        throw new IllegalArgumentException(where + "needs \"command\" (a stdio server) or \"url\" (an HTTP server)");
    }

    /** Resolves {@code ${NAME}} references in the values of one entry; never puts a value into a message. */
    private record Resolver(String where, Function<String, String> environment) {

        String string(Object value, String field) {
            if (!(value instanceof String s)) {
                throw new IllegalArgumentException(where + field + ": expected a string, found " + kind(value));
            }
            return resolve(s, field);
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
            String name = reference.startsWith("env:") ? reference.substring(4) : reference;
            String fallback = null;
            int dash = name.indexOf(":-");
            if (dash >= 0) {
                fallback = name.substring(dash + 2);
                name = name.substring(0, dash);
            }
            if (name.isEmpty() || !name.chars().allMatch(ch -> ch == '_' || Character.isLetterOrDigit(ch))) {
                throw new IllegalArgumentException(where + field + ": '${" + printable(reference)
                        + "}' is not a variable reference (expected ${NAME}, ${env:NAME} or ${NAME:-fallback}, "
                        + "NAME of letters, digits and '_')");
            }
            if (fallback != null && fallback.contains("${")) {
                // the reference ended at the first '}', inside the nested one: refuse rather than send a piece
                // of it as the value
                expand(fallback, field, true);
            }
            String value = environment.apply(name);
            if (value == null || (value.isEmpty() && fallback != null)) {
                if (fallback != null) {
                    return expand(fallback, field, true);
                }
                throw new IllegalArgumentException(where + field + ": ${" + name
                        + "} is not set in the environment");
            }
            return value;
        }
    }

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
    private static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
