package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 items 6 and 12 through the real main path ({@code java -jar mcp.jar} in a child process, no terminal): a
 * VS Code {@code .vscode/mcp.json} (comments, trailing commas, a server name with a space, {@code ${workspaceFolder}}
 * as the current directory) is served; an input the file needs is refused as a usage error naming it when there is
 * no terminal to ask on; a {@code url} with user info and a {@code cwd} that does not exist are usage errors (exit 2)
 * naming the file, the server and the field, before anything starts.
 */
@ExtendWith(LeakCheck.class)
class CliConfigDialectsIT {

    @TempDir
    Path dir;

    private static String json(List<String> argv) {
        return argv.stream().map(a -> "\"" + a.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private Run mcp(String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar(args)).directory(dir.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return run(pb);
    }

    private Path vsCode(String extraEnv) throws Exception {
        List<String> everything = ReferenceServer.stdioCommand();
        Path file = dir.resolve(".vscode").resolve("mcp.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                {
                  // VS Code's format
                  "inputs": [ { "type": "promptString", "id": "token", "description": "API token", "password": true } ],
                  "servers": {
                    "My Everything": {
                      "type": "stdio",
                      "command": "%s",
                      "args": %s,
                      "cwd": "${workspaceFolder}",
                      "env": { %s },
                    },
                  },
                }
                """.formatted(everything.getFirst(), json(everything.subList(1, everything.size())), extraEnv));
        return file;
    }

    @Test
    void aVsCodeFileIsServedWithTheCurrentDirectoryAsWorkspaceFolder() throws Exception {
        Path file = vsCode("\"WHERE\": \"${workspaceFolder}\"");
        Run servers = mcp("--config", file.toString(), "servers");
        assertThat(servers.code()).as(servers.err()).isZero();
        assertThat(servers.out()).contains("My Everything").contains("ready");
        Run tools = mcp("--config", file.toString(), "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("My_Everything__echo");
        Run call = mcp("--config", file.toString(), "call", "echo", "{\"message\": \"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).contains("Echo: hi");
    }

    @Test
    void anInputWithoutATerminalIsAUsageErrorNamingIt() throws Exception {
        Path file = vsCode("\"TOKEN\": \"${input:token}\"");
        Run r = mcp("--config", file.toString(), "servers");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: --config mcp.json: server 'My Everything': env.TOKEN: "
                + "${input:token}: there is no terminal to ask for it on");
    }

    @Test
    void aUrlWithUserInfoAndAMissingCwdAreUsageErrorsNamingFileServerAndField() throws Exception {
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {\"api\": {\"url\": \"https://me:hunter2@example.com/mcp\"}}}");
        Run url = mcp("--config", file.toString(), "servers");
        assertThat(url.code()).as(url.err()).isEqualTo(2);
        assertThat(url.err()).startsWith("mcp: --config mcp.json: server 'api': url: must not carry user info "
                + "(user:password@)").doesNotContain("hunter2");
        Run ping = mcp("--config", file.toString(), "ping");
        assertThat(ping.code()).as(ping.err()).isEqualTo(2);
        assertThat(ping.err()).startsWith("mcp: --config mcp.json: server 'api': url: must not carry user info");
        Files.writeString(file, "{\"mcpServers\": {\"files\": {\"command\": \"true\", \"cwd\": \"/no/such/dir-x\"}}}");
        Run cwd = mcp("--config", file.toString(), "ping");
        assertThat(cwd.code()).as(cwd.err()).isEqualTo(2);
        assertThat(cwd.err()).startsWith("mcp: --config mcp.json: server 'files': cwd: '/no/such/dir-x' is not an "
                + "existing directory");
    }
}
