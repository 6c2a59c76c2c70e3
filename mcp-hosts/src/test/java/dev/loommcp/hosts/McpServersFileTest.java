package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading {@code mcpServers} files: both transports, {@code ${ENV}} references, and errors that say where. */
class McpServersFileTest {

    private static final String SECRET = "s3cr3t-value-never-shown";
    /** An existing directory: a {@code cwd} that does not exist is refused. */
    private static final String HOME_DIR = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().toString();
    private static final Function<String, String> ENV = Map.of("TOKEN", SECRET, "HOME_DIR", HOME_DIR,
            "EMPTY", "")::get;

    private static List<ServerConfig> parse(String json) {
        return McpServersFile.parse(json, "mcp.json", ENV);
    }

    private static String error(String json) {
        try {
            parse(json);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).doesNotContain(SECRET).startsWith("mcp.json: ");
            return e.getMessage();
        }
        throw new AssertionError("no error for " + json);
    }

    @Test
    void readsStdioAndHttpServersInOrderWithEnvironmentReferencesResolved() {
        List<ServerConfig> servers = parse("""
                {"mcpServers": {
                  "files": {"command": "npx", "args": ["-y", "server", "${HOME_DIR}/docs"],
                            "env": {"API_KEY": "${TOKEN}", "MODE": "${MISSING:-fast}", "PRICE": "$$5"},
                            "cwd": "${HOME_DIR}"},
                  "api": {"type": "http", "url": "https://example.com/mcp?k=${env:TOKEN}",
                          "headers": {"Authorization": "Bearer ${TOKEN}"}},
                  "off": {"command": "nothing", "disabled": true}
                }}""");
        assertThat(servers).extracting(ServerConfig::name).containsExactly("files", "api");
        StdioServerConfig files = (StdioServerConfig) servers.get(0);
        assertThat(files.argv()).containsExactly("npx", "-y", "server", HOME_DIR + "/docs");
        assertThat(files.env()).containsExactly(Map.entry("API_KEY", SECRET), Map.entry("MODE", "fast"),
                Map.entry("PRICE", "$5"));
        assertThat(files.cwd()).isEqualTo(Path.of(HOME_DIR));
        HttpServerConfig api = (HttpServerConfig) servers.get(1);
        assertThat(api.url()).isEqualTo(URI.create("https://example.com/mcp?k=" + SECRET));
        assertThat(api.headers()).containsEntry("Authorization", "Bearer " + SECRET);
        // what may be printed never shows a value
        assertThat(files.toString()).doesNotContain(SECRET).contains("API_KEY");
        assertThat(api.toString()).doesNotContain(SECRET).contains("Authorization").contains("example.com/mcp");
    }

    @Test
    void vsCodeServersKeyIsAccepted() {
        assertThat(parse("{\"servers\": {\"a\": {\"url\": \"http://127.0.0.1:1/mcp\"}}}"))
                .singleElement().isInstanceOf(HttpServerConfig.class);
    }

    @Test
    void anUnsetVariableIsNamedWithTheServerAndFieldButNoValue() {
        assertThat(error("{\"mcpServers\": {\"gh\": {\"url\": \"https://x/mcp\", \"headers\": {\"Authorization\": "
                + "\"Bearer ${GITHUB_TOKEN}\"}}}}"))
                .isEqualTo("mcp.json: server 'gh': headers.Authorization: ${GITHUB_TOKEN} is not set in the "
                        + "environment");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"a\", \"${NOPE}\"]}}}"))
                .contains("server 's': args[1]: ${NOPE} is not set");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"A\": \"${TOKEN\"}}}}"))
                .contains("server 's': env.A: '${' without a closing '}'");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"A\": \"${TO KEN}\"}}}}"))
                .contains("server 's': env.A:").contains("not a variable reference");
    }

    /**
     * Issue 26 item 14: {@code ${A:-${B}}} ended at the first '}' and sent the literal {@code ${B}} (plus a stray
     * '}') as the value. Nested references are refused, as is every other malformed reference, in every field,
     * with the file, the server and the field named; a fallback is text ($$ still a literal $).
     */
    @Test
    void malformedAndNestedReferencesAreRefusedWithFileServerAndFieldNamed() {
        String nested = error("{\"mcpServers\": {\"gh\": {\"url\": \"https://x/mcp\", \"headers\": "
                + "{\"Authorization\": \"Bearer ${NOPE:-${TOKEN}}\"}}}}");
        assertThat(nested).startsWith("mcp.json: server 'gh': headers.Authorization: ").contains("not supported");
        // refused even when the outer variable is set, so that whether it is set never decides
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"${TOKEN:-${B}}\"]}}}"))
                .startsWith("mcp.json: server 's': args[0]: ").contains("not supported");
        for (String bad : List.of("${}", "${env:}", "${:-x}", "${A B}", "${A:=x}", "${A-x}", "${A:?x}", "${A.B}",
                "${TOKEN", "x${", "${A:-x", "${TOKEN:-${B", "${env:A:-${B}}")) {
            for (String field : List.of("command", "args", "env", "cwd")) {
                String value = "\"" + bad + "\"";
                String json = switch (field) {
                    case "args" -> "{\"command\": \"x\", \"args\": [" + value + "]}";
                    case "env" -> "{\"command\": \"x\", \"env\": {\"K\": " + value + "}}";
                    case "cwd" -> "{\"command\": \"x\", \"cwd\": " + value + "}";
                    default -> "{\"command\": " + value + "}";
                };
                String where = switch (field) {
                    case "args" -> "args[0]";
                    case "env" -> "env.K";
                    default -> field;
                };
                assertThat(error("{\"mcpServers\": {\"srv\": " + json + "}}")).as(bad + " in " + field)
                        .startsWith("mcp.json: server 'srv': " + where + ": ");
            }
            assertThat(error("{\"mcpServers\": {\"h\": {\"url\": \"https://x/" + bad.replace(" ", "") + "\"}}}"))
                    .as(bad + " in url").startsWith("mcp.json: server 'h': url: ");
            assertThat(error("{\"mcpServers\": {\"h\": {\"url\": \"https://x/mcp\", \"headers\": {\"X\": \""
                    + bad + "\"}}}}")).as(bad + " in headers").startsWith("mcp.json: server 'h': headers.X: ");
        }
        // a fallback is text: $$ is a literal $, a lone $ stays
        StdioServerConfig s = (StdioServerConfig) parse("{\"mcpServers\": {\"s\": {\"command\": \"x\", "
                + "\"args\": [\"${NOPE:-a$$b}\", \"${NOPE:-$c}\", \"${EMPTY:-d}\"]}}}").getFirst();
        assertThat(s.args()).containsExactly("a$b", "$c", "d");
    }

    @Test
    void badShapesAreNamedByServerAndField() {
        assertThat(error("[]")).contains("expected a JSON object");
        assertThat(error("{\"mcpServers\": [] }")).contains("expected an \"mcpServers\" object");
        assertThat(error("{\"mcpServers\": {\"s\": 3}}")).contains("server 's': expected an object, found a number");
        assertThat(error("{\"mcpServers\": {\"s\": {}}}")).contains("server 's': needs \"command\"");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"url\": \"http://h/\"}}}"))
                .contains("server 's': has both");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": [\"x\"]}}}"))
                .contains("server 's': command: expected a string, found an array");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": \"-y\"}}}"))
                .contains("server 's': args: expected an array of strings, found a string");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [1]}}}"))
                .contains("server 's': args[0]: expected a string, found a number");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"A\": 1}}}}"))
                .contains("server 's': env.A: expected a string");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"headers\": {}}}}"))
                .contains("server 's': headers applies to HTTP servers");
        assertThat(error("{\"mcpServers\": {\"s\": {\"url\": \"http://h/\", \"args\": []}}}"))
                .contains("server 's': args applies to stdio servers");
        assertThat(error("{\"mcpServers\": {\"s\": {\"url\": \"ftp://h/\"}}}"))
                .contains("server 's': url: expected an http:// or https:// URL");
        assertThat(error("{\"mcpServers\": {\"s\": {\"url\": \"http://h/\", \"type\": \"ws\"}}}"))
                .contains("server 's': type: unknown transport 'ws'");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"type\": \"http\"}}}"))
                .contains("server 's': type is http but there is no \"url\"");
        assertThat(error("{\"mcpServers\": {\"   \": {\"command\": \"x\"}}}")).contains("server name '   '")
                .contains("not only blanks");
        assertThat(error("{\"mcpServers\": {\"a\\tb\": {\"command\": \"x\"}}}")).contains("server name 'a?b'")
                .contains("control character");
        assertThat(error("{\"mcpServers\": {\"s\": {\"url\": \"http://h/\", \"type\": \"ws\"}}}"))
                .contains("(expected stdio, http or sse)");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\"}, \"s\": {\"command\": \"y\"}}}"))
                .isEqualTo("mcp.json: not valid JSON: line 1, column 43: the name \"s\" is given twice in one object");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"   \"}}}")).contains("server 's': command: is empty");
        assertThat(error("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"A=${TOKEN}\": \"1\"}}}}"))
                .isEqualTo("mcp.json: server 's': env: a variable name is empty or holds '=' or a NUL character");
    }

    @Test
    void restartBackoffDoublesUpToItsBound() {
        RestartPolicy p = new RestartPolicy(10, java.time.Duration.ofMillis(100), java.time.Duration.ofMillis(500),
                java.time.Duration.ofSeconds(1));
        assertThat(List.of(p.backoff(1), p.backoff(2), p.backoff(3), p.backoff(4), p.backoff(40)))
                .extracting(java.time.Duration::toMillis).containsExactly(100L, 200L, 400L, 500L, 500L);
        assertThatThrownBy(() -> p.backoff(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RestartPolicy(-1, java.time.Duration.ZERO, java.time.Duration.ZERO,
                java.time.Duration.ZERO)).hasMessageContaining("negative");
        assertThatThrownBy(() -> new RestartPolicy(1, java.time.Duration.ofSeconds(2), java.time.Duration.ofSeconds(1),
                java.time.Duration.ZERO)).hasMessageContaining("maxBackoff");
    }

    @Test
    void readsAFileAndNamesItInErrors(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("claude.json");
        Files.writeString(file, "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"${NOT_SET_ANYWHERE_X}\"]}}}");
        assertThatThrownBy(() -> McpServersFile.read(file, name -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("claude.json: server 's': args[0]: ${NOT_SET_ANYWHERE_X} is not set in the environment");
        Files.writeString(file, "{\"mcpServers\": {\"s\": {\"command\": \"x\"}}}");
        assertThat(McpServersFile.read(file)).singleElement().extracting(ServerConfig::name).isEqualTo("s");
    }

    /**
     * Issue 26 items 20 and 21: a syntax error is named by line and column in words (the parser's message named
     * {@code StreamReadFeature} and gave no line); bytes that are not UTF-8 are refused with where, not decoded to
     * U+FFFD and used; a byte order mark is skipped.
     */
    @Test
    void syntaxErrorsAndBadUtf8AreNamedByLineAndColumn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {\n  \"s\": {\"command\": \"x\"}\n  \"t\": {}}}\n");
        assertThatThrownBy(() -> McpServersFile.read(file, name -> null))
                .hasMessageStartingWith("mcp.json: not valid JSON: line 3, column 3: ");
        Files.writeString(file, "{\"mcpServers\": {\"s\": {\"command\": \"x\"}}");
        assertThatThrownBy(() -> McpServersFile.read(file, name -> null)).hasMessageStartingWith(
                "mcp.json: not valid JSON: line 1, column 39: the text ends inside an object (a closing '}' is missing)")
                .message().doesNotContain("Feature").doesNotContain("`");
        byte[] start = "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"".getBytes(
                java.nio.charset.StandardCharsets.UTF_8);
        byte[] bad = java.util.Arrays.copyOf(start, start.length + 6);
        System.arraycopy(new byte[] {(byte) 0xe9, '"', ']', '}', '}', '}'}, 0, bad, start.length, 6);
        Files.write(file, bad);
        assertThatThrownBy(() -> McpServersFile.read(file, name -> null)).hasMessage("mcp.json: not valid UTF-8: "
                + "byte 0xe9 at line 1, column " + (start.length + 1) + " (byte offset " + start.length + "); JSON text "
                + "must be UTF-8");
        byte[] bom = "\uFEFF{\"mcpServers\": {\"s\": {\"command\": \"x\"}}}".getBytes(
                java.nio.charset.StandardCharsets.UTF_8);
        Files.write(file, bom);
        assertThat(McpServersFile.read(file, name -> null)).singleElement().extracting(ServerConfig::name)
                .isEqualTo("s");
    }

    @Test
    void builderRefusesNamesThatWouldMakeNamespacedToolsAmbiguous() {
        assertThatThrownBy(() -> McpServers.newBuilder().add(StdioServerConfig.of("a__b", "x")).build())
                .hasMessageContaining("server 'a__b'").hasMessageContaining("contains the separator");
        assertThatThrownBy(() -> McpServers.newBuilder().add(StdioServerConfig.of("a_", "x")).build())
                .hasMessageContaining("server 'a_'").hasMessageContaining("ends with '_'");
        assertThatThrownBy(() -> McpServers.newBuilder().add(StdioServerConfig.of("a", "x"))
                .add(StdioServerConfig.of("a", "y"))).hasMessageContaining("server 'a' is given twice");
        assertThatThrownBy(() -> McpServers.newBuilder().separator("x")).hasMessageContaining("separator");
        McpServers.newBuilder().separator(".").add(StdioServerConfig.of("a_", "x")).build().close();
    }

    @Test
    void fieldsOfTheWrongJsonTypeAndBothServerKeysAreRefused() {
        // a string "true" left the server enabled; a password flag as a string showed a secret as it was typed
        assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"node\", \"disabled\": \"true\"}}}"))
                .isEqualTo("mcp.json: server 'a': disabled: expected true or false, found a string");
        assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"node\", \"disabled\": 1}}}"))
                .isEqualTo("mcp.json: server 'a': disabled: expected true or false, found a number");
        assertThat(error("{\"inputs\": [{\"id\": \"k\", \"password\": \"true\"}], \"servers\": {}}"))
                .isEqualTo("mcp.json: inputs[0]: password: expected true or false, found a string");
        assertThat(error("{\"inputs\": [{\"id\": \"k\", \"description\": 5}], \"servers\": {}}"))
                .isEqualTo("mcp.json: inputs[0]: description: expected a string, found a number");
        // one of the two used to be dropped silently
        assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"node\"}}, \"servers\": {\"b\": "
                + "{\"command\": \"x\"}}}")).startsWith("mcp.json: has both \"mcpServers\" and \"servers\"");
    }

    @Test
    void headersTheTransportWouldRefuseAreRefusedWhenTheFileIsRead() {
        Function<String, String> env = Map.of("CRLF", "a\r\nX-Evil: 1", "TOKEN", SECRET)::get;
        Function<String, String> read = json -> {
            try {
                McpServersFile.parse(json, "mcp.json", env);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain("X-Evil");
                return e.getMessage();
            }
            throw new AssertionError("no error for " + json);
        };
        String head = "{\"mcpServers\": {\"api\": {\"url\": \"http://127.0.0.1:1/mcp\", \"headers\": {";
        // a line break from the environment (after the reference is resolved)
        assertThat(read.apply(head + "\"Authorization\": \"Bearer ${CRLF}\"}}}}"))
                .startsWith("mcp.json: server 'api': headers.Authorization: the value holds a control character");
        assertThat(read.apply(head + "\"X-Key\": \"${TOKEN}\\u0000\"}}}}"))
                .startsWith("mcp.json: server 'api': headers.X-Key: the value holds a control character");
        assertThat(read.apply(head + "\"Bad Name:\": \"v\"}}}}"))
                .startsWith("mcp.json: server 'api': headers.Bad Name:: not a valid header name");
        for (String owned : List.of("Host", "content-length", "Mcp-Session-Id", "MCP-Protocol-Version", "Accept",
                "Mcp-Param-Region")) {
            assertThat(read.apply(head + "\"" + owned + "\": \"v\"}}}}")).isEqualTo("mcp.json: server 'api': headers."
                    + owned + ": a header the HTTP transport sets itself or the HTTP client does not allow");
        }
        // the SSE transport takes the same rule, and so do both records built in code
        assertThat(read.apply("{\"mcpServers\": {\"old\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\", "
                + "\"headers\": {\"Host\": \"x\"}}}}")).startsWith("mcp.json: server 'old': headers.Host: ");
        assertThatThrownBy(() -> HttpServerConfig.of("api", URI.create("http://127.0.0.1:1/mcp"))
                .withHeader("X-Key", SECRET + "\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("server 'api': header X-Key: ").hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> SseServerConfig.of("old", URI.create("http://127.0.0.1:1/sse"))
                .withHeader("Mcp-Session-Id", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("server 'old': header Mcp-Session-Id: ");
        // Authorization is an ordinary header
        assertThat(HttpServerConfig.of("api", URI.create("http://127.0.0.1:1/mcp"))
                .withHeader("Authorization", "Bearer x").headers()).containsKey("Authorization");
    }

    @Test
    void aFileOrEnvFileLargerThanOneMebibyteIsRefusedReadingNoMoreThanTheLimit(@TempDir Path dir)
            throws Exception {
        Path big = dir.resolve("mcp.json");
        Files.write(big, new byte[McpServersFile.MAX_FILE_BYTES + 1]);
        assertThatThrownBy(() -> McpServersFile.read(big)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mcp.json: larger than 1048576 bytes (1 MiB), the limit of a configuration file");
        Path zero = Path.of("/dev/zero");
        if (Files.isReadable(zero)) {
            // endless: it used to be read until the heap ran out
            assertThatThrownBy(() -> McpServersFile.read(zero)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("zero: larger than 1048576 bytes (1 MiB), the limit of a configuration file");
            assertThatThrownBy(() -> parse("{\"mcpServers\": {\"a\": {\"command\": \"node\", \"envFile\": "
                    + "\"/dev/zero\"}}}")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("mcp.json: server 'a': envFile: larger than 1048576 bytes (1 MiB), the limit of a "
                            + "configuration file");
        }
        // a file of exactly the limit is read
        Path fits = dir.resolve("fits.json");
        byte[] padded = new byte[McpServersFile.MAX_FILE_BYTES];
        java.util.Arrays.fill(padded, (byte) ' ');
        byte[] json = "{\"mcpServers\": {}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(json, 0, padded, 0, json.length);
        Files.write(fits, padded);
        assertThat(McpServersFile.read(fits)).isEmpty();
    }

    @Test
    void aSecretThatAReferencePutsInTheUrlPathIsShownNowhere() {
        String json = """
                {"mcpServers": {
                  "api": {"url": "http://127.0.0.1:1/${TOKEN}/mcp?k=${TOKEN}#${TOKEN}"},
                  "old": {"type": "sse", "url": "http://127.0.0.1:1/${TOKEN}/sse"}
                }}""";
        List<ServerConfig> servers = parse(json);
        HttpServerConfig api = (HttpServerConfig) servers.get(0);
        SseServerConfig old = (SseServerConfig) servers.get(1);
        assertThat(api.url().getPath()).isEqualTo("/" + SECRET + "/mcp");
        // as the file wrote it, without query and fragment
        assertThat(api.shownUrl()).isEqualTo("http://127.0.0.1:1/${TOKEN}/mcp");
        assertThat(old.shownUrl()).isEqualTo("http://127.0.0.1:1/${TOKEN}/sse");
        assertThat(api.toString()).doesNotContain(SECRET).contains("http://127.0.0.1:1/${TOKEN}/mcp");
        assertThat(old.toString()).doesNotContain(SECRET).contains("http://127.0.0.1:1/${TOKEN}/sse");
        // the transports cannot tell a secret segment from a plain one: they show the origin only
        assertThat(api.newTransport().toString()).doesNotContain(SECRET).contains("http://127.0.0.1:1/<path redacted>");
        assertThat(old.newTransport().toString()).doesNotContain(SECRET);
        // built in code: scheme, host, port and path
        assertThat(HttpServerConfig.of("x", URI.create("https://example.com/mcp?k=v")).shownUrl())
                .isEqualTo("https://example.com/mcp");
    }
}
