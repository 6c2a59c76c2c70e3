package dev.example.consumer;

import dev.loommcp.McpClient;
import dev.loommcp.config.Era;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.opentelemetry.McpTelemetry;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Tool;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import io.opentelemetry.api.OpenTelemetry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A user's program built against the published loom-mcp artifacts (scripts/consumer-test.sh runs it on the class path
 * and on the module path): talks to the reference server over stdio, to the modern fixture over HTTP and over a unix
 * domain socket (mcp-transport-unix, found by ServiceLoader; the HTTP client with mcp-opentelemetry's interceptors), and
 * to the reference server again through an mcpServers file (mcp-hosts) and the same registry as LangChain4j tools
 * (mcp-langchain4j); validates a structured result against its output schema (the JSON Schema validator and
 * Jackson at run time), converts it into a record, drives the in-memory test transport, and leaves no child process
 * behind. Exits 0 with "consumer OK" on the
 * last line, or non-zero naming the first failed check.
 *
 * <p>Arguments: {@code classpath|modulepath} (how it was started: checked against where the loom-mcp classes live)
 * and the {@code test-servers} directory (the pinned Node packages).
 */
public final class ConsumerMain {

    /** The reference server's {@code get-structured-content} result. */
    record Weather(double temperature, String conditions, double humidity) {}

    private ConsumerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !List.of("classpath", "modulepath").contains(args[0])) {
            throw new IllegalArgumentException("usage: ConsumerMain classpath|modulepath TEST_SERVERS_DIR");
        }
        boolean modulePath = args[0].equals("modulepath");
        Path nodeDir = Path.of(args[1]);
        checkLayout(modulePath);
        overStdio(nodeDir);
        overHttp(nodeDir);
        overUnixSocket(nodeDir);
        hosted(nodeDir);
        scripted();
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        check(left.isEmpty(), "child processes left behind: " + left);
        System.out.println("consumer OK (" + args[0] + ")");
    }

    /** Where the classes were loaded from: named modules on the module path, the unnamed module on the class path. */
    private static void checkLayout(boolean modulePath) {
        List<Class<?>> api = List.of(McpClient.class, StdioTransport.class, HttpTransport.class, McpTasks.class,
                dev.loommcp.auth.McpOAuth.class, ScriptedTransport.class, McpServers.class,
                dev.loommcp.transport.unix.UnixConnector.class, dev.loommcp.langchain4j.LoomToolProvider.class,
                McpTelemetry.class, dev.loommcp.store.jdbc.JdbcTokenStore.class, dev.loommcp.skills.McpSkills.class);
        List<String> expected = List.of("dev.loommcp.core", "dev.loommcp.transport.stdio",
                "dev.loommcp.transport.http", "dev.loommcp.tasks", "dev.loommcp.auth", "dev.loommcp.testing",
                "dev.loommcp.hosts", "dev.loommcp.transport.unix", "dev.loommcp.langchain4j", "dev.loommcp.opentelemetry",
                "dev.loommcp.store.jdbc", "dev.loommcp.skills");
        for (int i = 0; i < api.size(); i++) {
            Module m = api.get(i).getModule();
            if (modulePath) {
                check(expected.get(i).equals(m.getName()), api.get(i).getName() + " is in module " + m.getName()
                        + ", expected " + expected.get(i));
            } else {
                check(!m.isNamed(), api.get(i).getName() + " is in named module " + m.getName()
                        + " on the class path");
            }
        }
        check(ConsumerMain.class.getModule().isNamed() == modulePath,
                "the consumer's own module: " + ConsumerMain.class.getModule());
    }

    /** The reference server over stdio (2025 era): tools, a plain call, a structured result checked and converted. */
    private static void overStdio(Path nodeDir) throws InterruptedException {
        Path server = nodeDir.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        check(Files.isRegularFile(server), "reference server not installed: " + server);
        McpTasks tasks = McpTasks.newBuilder().build();
        try (McpClient client = McpClient.newBuilder(StdioTransport.newBuilder("node", server.toString(), "stdio")
                        .workingDirectory(nodeDir).build())
                .clientInfo(Implementation.of("loom-mcp-consumer", "1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .protocolMode(ProtocolMode.LEGACY)
                .outputSchemaValidation(OutputSchemaValidation.FAIL)
                .taskSupport(tasks.support())
                .build()) {
            client.connect();
            List<String> names = client.listAllTools().stream().map(Tool::name).toList();
            check(names.contains("echo") && names.contains("get-structured-content"), "stdio tools: " + names);
            String echo = client.callTool("echo", Map.of("message", "hi")).text();
            check("Echo: hi".equals(echo), "stdio echo answered " + echo);
            CallToolResult r = client.callTool("get-structured-content", Map.of("location", "Chicago"));
            Weather w = r.structuredContentAs(Weather.class);
            check(w.temperature() == 36 && !w.conditions().isEmpty(), "structured content: " + w);
        }
    }

    /**
     * The modern fixture over Streamable HTTP (2026-07-28 era, found by AUTO's probe), with mcp-opentelemetry's
     * interceptors on the OpenTelemetry API alone (no SDK: everything a no-op).
     */
    private static void overHttp(Path nodeDir) throws IOException, InterruptedException {
        Process fixture = new ProcessBuilder("node", nodeDir.resolve("modern-fixture.mjs").toString(), "--http", "0")
                .directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            URI endpoint = URI.create(firstLine(fixture).strip());
            try (McpClient client = McpTelemetry.create(OpenTelemetry.noop()).instrument(
                            McpClient.newBuilder(HttpTransport.newBuilder(endpoint).build())
                    .clientInfo(Implementation.of("loom-mcp-consumer", "1.0"))
                    .requestTimeout(Duration.ofSeconds(30)))
                    .build()) {
                client.connect();
                check(client.era().orElseThrow() == Era.MODERN, "http era: " + client.era().orElseThrow());
                String echo = client.callTool("echo", Map.of("message", "over http")).text();
                check("Echo: over http".equals(echo), "http echo answered " + echo);
            }
        } finally {
            fixture.destroy();
            if (!fixture.waitFor(10, TimeUnit.SECONDS)) {
                fixture.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * The modern fixture behind a unix domain socket ({@code unix-listen.cjs} moves its listener onto the socket): the
     * {@code unix:} endpoint is served by mcp-transport-unix, which the HTTP transport finds through ServiceLoader.
     */
    private static void overUnixSocket(Path nodeDir) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("consumer-unix-");
        Path socket = dir.resolve("mcp.sock");
        ProcessBuilder pb = new ProcessBuilder("node", "-r", nodeDir.resolve("unix-listen.cjs").toString(),
                nodeDir.resolve("modern-fixture.mjs").toString(), "--http", "0")
                .directory(nodeDir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("MCP_UNIX_SOCKET", socket.toString());
        Process fixture = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(socket)) {
                check(fixture.isAlive() && System.nanoTime() < deadline, "the fixture did not listen on " + socket);
                Thread.sleep(50); // polling a socket file: there is no event to wait on
            }
            try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder("unix:" + socket + ":/mcp").build())
                    .requestTimeout(Duration.ofSeconds(30))
                    .build()) {
                client.connect();
                String echo = client.callTool("echo", Map.of("message", "over a socket")).text();
                check("Echo: over a socket".equals(echo), "unix echo answered " + echo);
            }
        } finally {
            fixture.destroy();
            if (!fixture.waitFor(10, TimeUnit.SECONDS)) {
                fixture.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
    }

    /** A registry from an mcpServers file: the reference server's tools under namespaced names, a routed call. */
    private static void hosted(Path nodeDir) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("consumer-hosts-");
        Path config = dir.resolve("mcp.json");
        String server = nodeDir.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
                .toString().replace("\\", "\\\\").replace("\"", "\\\"");
        Files.writeString(config, "{\"mcpServers\": {\"everything\": {\"command\": \"node\", \"args\": [\""
                + server + "\", \"stdio\"]}}}");
        try (McpServers servers = McpServers.newBuilder().config(config).build()) {
            List<String> names = servers.tools().stream().map(HostedTool::name).toList();
            check(names.contains("everything__echo"), "hosted tools: " + names);
            String echo = servers.callTool("everything__echo", Map.of("message", "hosted")).text();
            check("Echo: hosted".equals(echo), "hosted echo answered " + echo);
            // mcp-skills over the registry (mcp-hosts is its optional dependency): the reference server declares no
            // skills extension, so it has no skills and is never asked
            var skills = dev.loommcp.skills.HostSkills.of(servers).list(dev.loommcp.RequestOptions.DEFAULT);
            check(skills.isEmpty(), "hosted skills: " + skills);
            // the same registry as LangChain4j tools (mcp-langchain4j): a tool specification and its executor
            var tools = dev.loommcp.langchain4j.LoomToolProvider.of(servers).provideTools(
                    new dev.langchain4j.service.tool.ToolProviderRequest("consumer",
                            dev.langchain4j.data.message.UserMessage.from("hi")));
            var echoTool = tools.aiServiceTools().stream().filter(t -> t.name().equals("everything__echo"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no everything__echo for LangChain4j"));
            String lc4j = echoTool.toolExecutor().executeWithContext(dev.langchain4j.agent.tool.ToolExecutionRequest
                    .builder().id("1").name("everything__echo").arguments("{\"message\":\"lc4j\"}").build(), null)
                    .resultText();
            check("Echo: lc4j".equals(lc4j), "LangChain4j echo answered " + lc4j);
        } finally {
            Files.deleteIfExists(config);
            Files.deleteIfExists(dir);
        }
    }

    /** The endpoint line the fixture prints once it listens (bounded: 30 s). */
    private static String firstLine(Process process) throws InterruptedException {
        CompletableFuture<String> line = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                line.complete(r.readLine());
                while (r.readLine() != null) {
                    // drain until the process ends
                }
            } catch (IOException e) {
                line.completeExceptionally(e);
            }
        }, "fixture-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String first = line.get(30, TimeUnit.SECONDS);
            check(first != null, "the modern fixture exited before listening");
            return first;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the modern fixture did not print its endpoint", e);
        }
    }

    /** The published test fixture: a scripted in-memory server. */
    private static void scripted() throws InterruptedException {
        ScriptedTransport server = ScriptedTransport.create()
                .on("tools/call", request -> Map.of("content", List.of(Map.of("type", "text", "text", "scripted"))));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            String text = client.callTool("anything", Map.of()).text();
            check("scripted".equals(text), "scripted answered " + text);
        }
    }

    private static void check(boolean ok, String failure) {
        if (!ok) {
            throw new AssertionError(failure);
        }
    }
}
