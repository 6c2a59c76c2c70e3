package dev.loommcp.hosts;

import dev.loommcp.McpVetoedException;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.it.servers.CrashFixture;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Interceptors registered on the registry (issue 30 section 1) reach every hosted server's client, outside those the
 * client customizer adds for one server, and a veto reaches the caller of the registry.
 */
@ExtendWith(LeakCheck.class)
class McpServersInterceptorsTest {

    private static McpInterceptor logging(String name, List<String> log) {
        return chain -> {
            log.add(name + " " + chain.request().toolName().orElse(chain.request().method()));
            return chain.proceed(chain.request());
        };
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }

    @Test
    void theRegistrysInterceptorsRunForEveryServerOutsideThePerServerOnesAndMayVeto() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("alpha", CrashFixture.stdioCommand(0)))
                .add(StdioServerConfig.of("beta", CrashFixture.stdioCommand(0)))
                .addInterceptor(logging("registry", log))
                .addInterceptor(chain -> {
                    if (chain.request().toolName().orElse("").equals("grow")) {
                        throw new McpVetoedException(chain.request().method(), "grow is not on the allow-list");
                    }
                    return chain.proceed(chain.request());
                })
                .clientCustomizer((config, b) -> {
                    if (config.name().equals("alpha")) {
                        b.addInterceptor(logging("alpha-only", log));
                    }
                })
                .build()) {
            assertThat(text(servers.callTool("alpha__echo", Map.of("message", "a")))).isEqualTo("Echo: a");
            assertThat(text(servers.callTool("beta__echo", Map.of("message", "b")))).isEqualTo("Echo: b");
            assertThat(log).filteredOn(l -> l.endsWith("echo"))
                    .containsExactly("registry echo", "alpha-only echo", "registry echo");
            assertThatThrownBy(() -> servers.callTool("beta__grow", Map.of("bytes", 1)))
                    .isInstanceOf(McpVetoedException.class).hasMessageContaining("allow-list");
            assertThat(text(servers.callTool("beta__calls", Map.of()))).isEqualTo("calls: 2");
        }
    }
}
