package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.it.servers.ReferenceServer;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 6: one file per host, written the way the host's documentation shows it (VS Code's
 * {@code .vscode/mcp.json} with {@code servers}, {@code inputs} and predefined variables; Cursor's
 * {@code ~/.cursor/mcp.json} with {@code ${env:NAME}}, {@code ${userHome}}, {@code ${workspaceFolder}}, SSE servers;
 * Claude Desktop's {@code claude_desktop_config.json}), with comments, trailing commas, a byte order mark, server
 * names with spaces and other scripts. Each was refused whole before. The VS Code file and a Cursor SSE entry are
 * started against the pinned reference server.
 */
@ExtendWith(LeakCheck.class)
class HostDialectsTest {

    private static final String SECRET = "k-123-never-shown";

    @TempDir
    Path workspace;

    private static String json(List<String> argv) {
        return argv.stream().map(a -> "\"" + a.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** VS Code's .vscode/mcp.json: BOM, comments, trailing commas, inputs, predefined variables, envFile. */
    private Path vsCodeFile() throws Exception {
        List<String> everything = ReferenceServer.stdioCommand();
        Files.writeString(workspace.resolve(".env"), "# the workspace's secrets\nexport FROM_FILE=one\n"
                + "QUOTED=\"two words\"\nOVERRIDDEN=file\n");
        Path file = workspace.resolve(".vscode").resolve("mcp.json");
        Files.createDirectories(file.getParent());
        String text = """
                // .vscode/mcp.json, as VS Code's MCP configuration reference shows it
                {
                  "inputs": [
                    {
                      "type": "promptString",
                      "id": "api-key",
                      "description": "Everything API key",
                      "password": true
                    },
                    { "type": "promptString", "id": "unused", "description": "never asked", },
                  ],
                  "servers": {
                    /* a local server */
                    "Everything Server": {
                      "type": "stdio",
                      "command": "%s",
                      "args": %s,
                      "env": {
                        "API_KEY": "${input:api-key}",
                        "HOME_COPY": "${userHome}",
                        "FROM_ENV": "${env:DIALECT_VAR}",
                        "OVERRIDDEN": "env",
                      },
                      "envFile": "${workspaceFolder}/.env",
                      "cwd": "${workspaceFolder}",
                    },
                    "remote": {
                      "type": "http",
                      "url": "https://api.example.com/mcp",
                      "headers": { "Authorization": "Bearer ${input:api-key}" },
                    },
                  },
                }
                """.formatted(everything.getFirst().replace("\\", "\\\\"), json(everything.subList(1,
                everything.size())));
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[body.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(body, 0, withBom, 3, body.length);
        Files.write(file, withBom);
        return file;
    }

    private McpServersFile.Options options(List<McpServersFile.Input> asked) {
        return McpServersFile.Options.defaults()
                .withEnvironment(Map.of("DIALECT_VAR", "from-env")::get)
                .withWorkspaceFolder(workspace)
                .withUserHome(Path.of("/home/someone"))
                .withInputs(input -> {
                    asked.add(input);
                    return SECRET;
                });
    }

    @Test
    void vsCodeFileIsReadWithInputsAskedOnceAndStartsAgainstTheReferenceServer() throws Exception {
        Path file = vsCodeFile();
        List<McpServersFile.Input> asked = new CopyOnWriteArrayList<>();
        List<ServerConfig> servers = McpServersFile.read(file, options(asked));
        assertThat(servers).extracting(ServerConfig::name).containsExactly("Everything Server", "remote");
        // asked once although used twice; the unused input never
        assertThat(asked).containsExactly(new McpServersFile.Input("api-key", "Everything API key", true, null));
        StdioServerConfig everything = (StdioServerConfig) servers.get(0);
        assertThat(everything.env()).containsEntry("API_KEY", SECRET)
                .containsEntry("HOME_COPY", Path.of("/home/someone").toString())
                .containsEntry("FROM_ENV", "from-env").containsEntry("FROM_FILE", "one")
                .containsEntry("QUOTED", "two words").containsEntry("OVERRIDDEN", "env");
        assertThat(everything.cwd()).isEqualTo(workspace);
        assertThat(((HttpServerConfig) servers.get(1)).headers()).containsEntry("Authorization", "Bearer " + SECRET);
        assertThat(everything.toString()).doesNotContain(SECRET);

        // started: a name with a space prefixes tool names a model accepts
        try (McpServers registry = McpServers.newBuilder().add(everything).build()) {
            List<HostedTool> tools = registry.tools();
            assertThat(tools).extracting(HostedTool::name).contains("Everything_Server__echo")
                    .allMatch(n -> n.matches("^[a-zA-Z0-9_-]{1,64}$"));
            assertThat(text(registry.callTool("Everything_Server__echo", Map.of("message", "vs code"))))
                    .isEqualTo("Echo: vs code");
            assertThat(text(registry.callTool("Everything Server__echo", Map.of("message", "full"))))
                    .isEqualTo("Echo: full");
        }
    }

    @Test
    void withoutAPromptAnInputIsRefusedByNameAndWithoutAWorkspaceSoIsWorkspaceFolder() throws Exception {
        Path file = vsCodeFile();
        assertThatThrownBy(() -> McpServersFile.read(file, McpServersFile.Options.defaults()
                .withEnvironment(Map.of("DIALECT_VAR", "x")::get).withWorkspaceFolder(workspace)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("mcp.json: server 'Everything Server': env.API_KEY: ${input:api-key} "
                        + "(Everything API key) has no answer");
        assertThatThrownBy(() -> McpServersFile.read(file, options(new CopyOnWriteArrayList<>())
                .withWorkspaceFolder(null)))
                .hasMessageStartingWith("mcp.json: server 'Everything Server': envFile: ${workspaceFolder}: no "
                        + "workspace folder was given");
        // a prompt that refuses is named with the input
        assertThatThrownBy(() -> McpServersFile.read(file, options(new CopyOnWriteArrayList<>()).withInputs(i -> {
            throw new IllegalArgumentException("no terminal");
        }))).hasMessage("mcp.json: server 'Everything Server': env.API_KEY: ${input:api-key}: no terminal");
        // an input the file does not define, and a type other than promptString
        assertThatThrownBy(() -> McpServersFile.parse("{\"inputs\": [{\"type\": \"pickString\", \"id\": \"p\"}],"
                + "\"servers\": {\"s\": {\"command\": \"x\", \"args\": [\"${input:nope}\"]}}}", "mcp.json",
                options(new CopyOnWriteArrayList<>()))).hasMessage("mcp.json: server 's': args[0]: ${input:nope}: "
                + "there is no input 'nope' in mcp.json's \"inputs\"");
        assertThatThrownBy(() -> McpServersFile.parse("{\"inputs\": [{\"type\": \"pickString\", \"id\": \"p\"}],"
                + "\"servers\": {\"s\": {\"command\": \"x\", \"args\": [\"${input:p}\"]}}}", "mcp.json",
                options(new CopyOnWriteArrayList<>()))).hasMessageContaining("args[0]: ${input:p}: input type "
                + "'pickString' is not supported");
    }

    @Test
    void cursorFileWithEnvUserHomeWorkspaceFolderAndSseServersStartsTheSseOne() throws Exception {
        try (HttpReferenceServer sse = HttpReferenceServer.sse()) {
            Path file = workspace.resolve("cursor-mcp.json");
            Files.writeString(workspace.resolve("search.env"), "SEARCH_MODE=fast # inline comment\n");
            Files.writeString(file, """
                    {
                      "mcpServers": {
                        "web-search": {
                          "command": "npx",
                          "args": ["-y", "web-search-mcp"],
                          "env": { "API_KEY": "${env:SEARCH_KEY}" },
                          "envFile": "${workspaceFolder}${/}search.env"
                        },
                        "my notes": {
                          "command": "${userHome}${pathSeparator}bin${/}notes-mcp",
                          "args": ["--root", "${workspaceFolder}", "--name", "${workspaceFolderBasename}"]
                        },
                        "sse server": { "type": "sse", "url": "${env:SSE_URL}", "headers": { "API_KEY": "v" } },
                        "remote": { "url": "http://localhost:8000/mcp" },
                        "typed": { "type": "streamable-http", "url": "http://localhost:8000/mcp" }
                      }
                    }
                    """);
            Map<String, String> env = Map.of("SEARCH_KEY", "sk", "SSE_URL", sse.sseUrl().toString());
            List<ServerConfig> servers = McpServersFile.read(file, McpServersFile.Options.defaults()
                    .withEnvironment(env::get).withWorkspaceFolder(workspace).withUserHome(Path.of("/u")));
            assertThat(servers).extracting(ServerConfig::transport)
                    .containsExactly("stdio", "stdio", "sse", "http", "http");
            StdioServerConfig search = (StdioServerConfig) servers.get(0);
            assertThat(search.env()).containsExactly(Map.entry("SEARCH_MODE", "fast"), Map.entry("API_KEY", "sk"));
            StdioServerConfig notes = (StdioServerConfig) servers.get(1);
            String sep = File.separator;
            assertThat(notes.argv()).containsExactly("/u" + sep + "bin" + sep + "notes-mcp", "--root",
                    workspace.toString(), "--name", workspace.getFileName().toString());
            SseServerConfig legacy = (SseServerConfig) servers.get(2);
            assertThat(legacy.url()).isEqualTo(sse.sseUrl());
            assertThat(legacy.newTransport()).isInstanceOf(dev.loommcp.transport.http.SseTransport.class);

            try (McpServers registry = McpServers.newBuilder().add(legacy).build()) {
                assertThat(text(registry.callTool("sse_server__echo", Map.of("message", "over sse"))))
                        .isEqualTo("Echo: over sse");
                assertThat(registry.statuses().getFirst().transport()).isEqualTo("sse");
            }
        }
    }

    @Test
    void claudeDesktopFileWithOtherSettingsAndNamesInOtherScripts() throws Exception {
        Path file = workspace.resolve("claude_desktop_config.json");
        Files.writeString(file, """
                {
                  "mcpServers": {
                    "filesystem": {
                      "command": "npx",
                      "args": [
                        "-y",
                        "@modelcontextprotocol/server-filesystem",
                        "/Users/username/Desktop",
                        "/Users/username/Downloads"
                      ]
                    },
                    "Météo du jour": {
                      "command": "uvx",
                      "args": ["mcp-weather"],
                      "env": { "WEATHER_API_KEY": "abc" }
                    }
                  },
                  "globalShortcut": "Ctrl+Space"
                }
                """);
        List<ServerConfig> servers = McpServersFile.read(file, name -> null);
        assertThat(servers).extracting(ServerConfig::name).containsExactly("filesystem", "Météo du jour");
        assertThat(((StdioServerConfig) servers.get(1)).env()).containsExactly(Map.entry("WEATHER_API_KEY", "abc"));
    }

    @Test
    void aUrlWithUserInfoAndACwdThatDoesNotExistAreRefusedWhenTheFileIsRead() {
        assertThatThrownBy(() -> McpServersFile.parse("{\"mcpServers\": {\"api\": {\"url\": "
                + "\"https://me:${PASS}@example.com/mcp\"}}}", "mcp.json", Map.of("PASS", SECRET)::get))
                .hasMessage("mcp.json: server 'api': url: must not carry user info (user:password@); send "
                        + "credentials in \"headers\" (Authorization) instead")
                .message().doesNotContain(SECRET);
        assertThatThrownBy(() -> McpServersFile.parse("{\"mcpServers\": {\"old\": {\"type\": \"sse\", \"url\": "
                + "\"http://u:p@example.com/sse\"}}}", "mcp.json", n -> null))
                .hasMessageContaining("server 'old': url: must not carry user info");
        assertThatThrownBy(() -> McpServersFile.parse("{\"mcpServers\": {\"files\": {\"command\": \"x\", \"cwd\": "
                + "\"${workspaceFolder}/missing-dir\"}}}", "mcp.json", McpServersFile.Options.defaults()
                .withWorkspaceFolder(workspace)))
                .hasMessage("mcp.json: server 'files': cwd: '${workspaceFolder}/missing-dir' is not an existing "
                        + "directory");
        // the records refuse user info when built in code too
        assertThatThrownBy(() -> HttpServerConfig.of("api", URI.create("https://me:pw@example.com/mcp")))
                .hasMessageContaining("must not carry user info").message().doesNotContain("pw");
        assertThatThrownBy(() -> SseServerConfig.of("api", URI.create("https://me:pw@example.com/sse")))
                .hasMessageContaining("must not carry user info");
    }

    @Test
    void envFileProblemsAreNamedByLineWithoutTheirText() throws Exception {
        Files.writeString(workspace.resolve("bad.env"), "OK=1\nthis is a secret value\n");
        McpServersFile.Options options = McpServersFile.Options.defaults().withWorkspaceFolder(workspace);
        assertThatThrownBy(() -> McpServersFile.parse("{\"servers\": {\"s\": {\"command\": \"x\", \"envFile\": "
                + "\"${workspaceFolder}/bad.env\"}}}", "mcp.json", options))
                .hasMessage("mcp.json: server 's': envFile: line 2: expected NAME=VALUE");
        assertThatThrownBy(() -> McpServersFile.parse("{\"servers\": {\"s\": {\"command\": \"x\", \"envFile\": "
                + "\"${workspaceFolder}/none.env\"}}}", "mcp.json", options))
                .hasMessage("mcp.json: server 's': envFile: there is no file '${workspaceFolder}/none.env'");
        assertThatThrownBy(() -> McpServersFile.parse("{\"servers\": {\"s\": {\"url\": \"http://h/\", \"envFile\": "
                + "\"x\"}}}", "mcp.json", options)).hasMessage("mcp.json: server 's': envFile applies to stdio servers "
                + "(command) only");
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }
}
