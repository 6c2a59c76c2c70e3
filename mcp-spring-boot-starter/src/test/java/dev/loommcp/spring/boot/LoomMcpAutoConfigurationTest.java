package dev.loommcp.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.spring.ai.LoomToolCallbacks;
import dev.loommcp.testing.LeakCheck;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.SimpleHttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.SimpleStatusAggregator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.core.Version;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's auto-configuration against the pinned reference server: lazy starts (a down server never stops the
 * context), tools listed on first use, health and gauges from the statuses, the file and per-server properties, the
 * property mistakes named, the Jackson 3 check, and the context's close leaving no process or thread.
 */
@ExtendWith(LeakCheck.class)
class LoomMcpAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LoomMcpAutoConfiguration.class));

    private static String[] everythingAndDown() {
        List<String> argv = ReferenceServer.stdioCommand();
        List<String> props = new ArrayList<>(List.of("loom.mcp.servers.everything.command=" + argv.getFirst(),
                "loom.mcp.servers.down.command=/nonexistent/loom-mcp-no-such-server",
                "loom.mcp.restart.max-restarts=0"));
        for (int i = 1; i < argv.size(); i++) {
            props.add("loom.mcp.servers.everything.args[" + (i - 1) + "]=" + argv.get(i));
        }
        return props.toArray(String[]::new);
    }

    @Test
    void theContextStartsWithoutStartingAServerAndWithoutToolBeansEvenWithAServerDown() {
        runner.withPropertyValues(everythingAndDown()).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(McpServers.class)
                    .hasSingleBean(LoomToolCallbacks.class).hasSingleBean(McpServersLifecycle.class)
                    .hasSingleBean(McpServersHealthIndicator.class).hasSingleBean(McpServersMetrics.class);
            // no ToolCallbackProvider or ToolCallback bean: Spring AI would list (start) them at refresh
            assertThat(context.getBeansOfType(ToolCallbackProvider.class)).isEmpty();
            assertThat(context.getBeansOfType(ToolCallback.class)).isEmpty();
            McpServers servers = context.getBean(McpServers.class);
            assertThat(servers.names()).containsExactly("everything", "down");
            assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.IDLE);
            assertThat(LeakCheck.descendants()).isEmpty();
            assertThat(context.getBean(McpServersHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void theFirstListingStartsTheServersAndHealthAndGaugesShowTheDownOneAndTheCloseEndsTheProcesses() {
        runner.withPropertyValues(everythingAndDown()).run(context -> {
            McpServers servers = context.getBean(McpServers.class);
            var meters = new SimpleMeterRegistry();
            context.getBean(McpServersMetrics.class).bindTo(meters);
            assertThat(meters.get("loom.mcp.server.ready").tag("server", "everything").gauge().value()).isZero();

            List<ToolCallback> tools = context.getBean(LoomToolCallbacks.class).toolCallbacks();
            assertThat(tools).extracting(t -> t.getToolDefinition().name()).contains("everything__echo");
            assertThat(LeakCheck.descendants()).isNotEmpty();

            Health health = context.getBean(McpServersHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(McpServersHealthIndicator.DEGRADED);
            @SuppressWarnings("unchecked")
            var down = (Map<String, Object>) health.getDetails().get("down");
            assertThat(down).containsEntry("state", "FAILED").containsKey("lastError");
            @SuppressWarnings("unchecked")
            var up = (Map<String, Object>) health.getDetails().get("everything");
            assertThat(up).containsEntry("state", "READY").containsEntry("transport", "stdio");
            assertThat(meters.get("loom.mcp.server.ready").tag("server", "everything").gauge().value()).isOne();
            assertThat(meters.get("loom.mcp.server.failed").tag("server", "down").gauge().value()).isOne();
            assertThat(meters.get("loom.mcp.server.tools").tag("server", "everything").gauge().value())
                    .isEqualTo(servers.server("everything").status().toolCount());
        });
        // the runner closed the context: the lifecycle closed the registry (LeakCheck: no process, no mcp- thread)
    }

    @Test
    void aFailedServerIsDegradedWhichLeavesTheRootHealthUpUnlessAGroupOrdersIt() {
        runner.withPropertyValues("loom.mcp.servers.down.command=/nonexistent/loom-mcp-no-such-server",
                "loom.mcp.restart.max-restarts=0").run(context -> {
            McpServersHealthIndicator indicator = context.getBean(McpServersHealthIndicator.class);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);   // IDLE: not tried yet
            context.getBean(LoomToolCallbacks.class).toolCallbacks();          // the first chat request's listing
            Status status = indicator.health().getStatus();
            assertThat(status).isEqualTo(McpServersHealthIndicator.DEGRADED);
            assertThat(status.getCode()).isEqualTo("DEGRADED");
            // Spring Boot's default aggregation and HTTP mapping: the root stays UP, 200
            Status root = new SimpleStatusAggregator().getAggregateStatus(Set.of(Status.UP, status));
            assertThat(root).isEqualTo(Status.UP);
            assertThat(new SimpleHttpCodeStatusMapper().getStatusCode(root)).isEqualTo(200);
            // a group that lists it (status.order, http-mapping, as docs/frameworks.md shows) turns it into 503
            Status ordered = new SimpleStatusAggregator("down", "degraded", "out-of-service", "up", "unknown")
                    .getAggregateStatus(Set.of(Status.UP, status));
            assertThat(ordered).isEqualTo(McpServersHealthIndicator.DEGRADED);
            assertThat(new SimpleHttpCodeStatusMapper(Map.of("degraded", 503)).getStatusCode(ordered))
                    .isEqualTo(503);
        });
    }

    @Test
    void theContextStopClosesTheRegistry() {
        runner.withPropertyValues(everythingAndDown()).run(context -> {
            McpServers servers = context.getBean(McpServers.class);
            servers.startAll();
            context.getBean(McpServersLifecycle.class).stop();
            assertThat(servers.isClosed()).isTrue();
            assertThat(context.getBean(McpServersHealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
        });
    }

    @Test
    void anMcpServersFileGivesTheServersAndThePropertiesRefineThemAndTheCustomizersApply(@TempDir Path dir)
            throws Exception {
        List<String> customized = new java.util.concurrent.CopyOnWriteArrayList<>();
        Path file = dir.resolve("mcp.json");
        List<String> argv = ReferenceServer.stdioCommand();
        Files.writeString(file, JsonMapper.builder().build().writeValueAsString(Map.of("mcpServers",
                Map.of("everything", Map.of("command", argv.getFirst(), "args", argv.subList(1, argv.size()))))));
        runner.withPropertyValues("loom.mcp.config-file=" + file,
                        "loom.mcp.servers.everything.request-timeout=20s", "loom.mcp.separator=--")
                .withBean(McpServersCustomizer.class, () -> b -> b.readyTimeout(Duration.ofSeconds(5)))
                .withBean(McpClientCustomizer.class, () -> (server, b) -> customized.add(server.name()))
                .run(context -> {
                    McpServers servers = context.getBean(McpServers.class);
                    assertThat(servers.names()).containsExactly("everything");
                    assertThat(servers.separator()).isEqualTo("--");
                    assertThat(customized).isEmpty();   // made when the server starts
                    assertThat(servers.callTool("everything--echo", Map.of("message", "hi")).text())
                            .isEqualTo("Echo: hi");
                    assertThat(customized).containsExactly("everything");
                });
    }

    @Test
    void propertyMistakesFailTheStartNamingTheProperty() {
        runner.withPropertyValues("loom.mcp.servers.x.args[0]=a").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("loom.mcp.servers.x has neither a command nor a url"));
        runner.withPropertyValues("loom.mcp.servers.x.command=node", "loom.mcp.servers.x.url=http://127.0.0.1:1/mcp")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("loom.mcp.servers.x has both a command and a url"));
        runner.withPropertyValues("loom.mcp.servers.x.url=http://127.0.0.1:1/mcp", "loom.mcp.servers.x.transport=ws")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("loom.mcp.servers.x.transport is ws"));
        runner.withPropertyValues("loom.mcp.servers.x.command=node", "loom.mcp.servers.x.oauth.client-id=c",
                        "loom.mcp.servers.x.oauth.client-secret=s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("loom.mcp.servers.x.oauth does not apply to x, a stdio server"));
        runner.withPropertyValues("loom.mcp.servers.x.url=http://127.0.0.1:1/mcp", "loom.mcp.servers.x.oauth.client-id=c")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("oauth.client-id is set without oauth.client-secret"));
        runner.withPropertyValues("loom.mcp.config-file=/nonexistent/mcp.json").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("/nonexistent/mcp.json"));
    }

    private void failsNaming(String message, String... properties) {
        runner.withPropertyValues(properties).run(context -> assertThat(context).getFailure().rootCause()
                .hasMessageContaining(message));
    }

    @Test
    void anUnknownPropertyFailsTheStartNamingIt() {
        failsNaming("loom.mcp.servers.ev.comand is not a loom.mcp property: a server (loom.mcp.servers.ev) takes "
                + "command, args", "loom.mcp.servers.ev.comand=node");
        failsNaming("loom.mcp.request-timout is not a loom.mcp property", "loom.mcp.request-timout=5s");
        failsNaming("loom.mcp.restart.max-restart is not a loom.mcp property", "loom.mcp.restart.max-restart=1");
        failsNaming("loom.mcp.servers.ev.oauth.client is not a loom.mcp property",
                "loom.mcp.servers.ev.command=node", "loom.mcp.servers.ev.oauth.client=c");
        // env and headers take any key, args an index; relaxed forms are properties too
        runner.withPropertyValues("loom.mcp.servers.ev.command=node", "loom.mcp.servers.ev.env.NODE_OPTIONS=x",
                        "loom.mcp.servers.ev.env.a.b=y", "loom.mcp.servers.ev.args[0]=a",
                        "loom.mcp.restart.maxRestarts=1", "loom.mcp.servers.ev.requestTimeout=5s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aDottedServerNameIsRefusedShowingTheBracketFormWhichWorks() {
        failsNaming("a server name with a dot is written in brackets, loom.mcp.servers[my.server].command",
                "loom.mcp.servers.my.server.command=node");
        failsNaming("loom.mcp.servers[my.server].args[0]", "loom.mcp.servers.my.server.args[0]=a");
        runner.withPropertyValues("loom.mcp.servers[my.server].command=node",
                        "loom.mcp.servers[my.server].args[0]=a")
                .run(context -> assertThat(context.getBean(McpServers.class).names()).containsExactly("my.server"));
    }

    @Test
    void everyDurationAndNumberIsCheckedAtStartNamingTheProperty() {
        failsNaming("loom.mcp.request-timeout is PT0S: it must be a positive duration", "loom.mcp.request-timeout=0s");
        failsNaming("loom.mcp.request-timeout is PT-5S", "loom.mcp.request-timeout=-5s");
        failsNaming("loom.mcp.servers.x.request-timeout is PT-1S", "loom.mcp.servers.x.command=node",
                "loom.mcp.servers.x.request-timeout=-1s");
        failsNaming("loom.mcp.startup-timeout is PT0S", "loom.mcp.startup-timeout=0s");
        failsNaming("loom.mcp.ready-timeout is PT-1S", "loom.mcp.ready-timeout=-1s");
        failsNaming("loom.mcp.close-timeout is PT0S", "loom.mcp.close-timeout=0s");
        failsNaming("loom.mcp.tools.list-timeout is PT0S", "loom.mcp.tools.list-timeout=0s");
        failsNaming("loom.mcp.restart.max-restarts is -1", "loom.mcp.restart.max-restarts=-1");
        failsNaming("loom.mcp.restart.initial-backoff is PT-1S", "loom.mcp.restart.initial-backoff=-1s");
        failsNaming("loom.mcp.restart.stable-after is PT-1S", "loom.mcp.restart.stable-after=-1s");
        failsNaming("loom.mcp.restart.max-backoff is PT0.1S: it must be at least loom.mcp.restart.initial-backoff",
                "loom.mcp.restart.max-backoff=100ms");
        failsNaming("loom.mcp.separator is abc: the separator must have 1 to 8 characters",
                "loom.mcp.separator=abc");
    }

    @Test
    void settingsOfTheOtherKindOfServerAreRefusedNamingTheProperty(@TempDir Path dir) throws Exception {
        String stdio = "loom.mcp.servers.x.command=node";
        String url = "loom.mcp.servers.x.url=http://127.0.0.1:1/mcp";
        failsNaming("loom.mcp.servers.x.transport does not apply to x, a stdio server", stdio,
                "loom.mcp.servers.x.transport=sse");
        failsNaming("loom.mcp.servers.x.headers does not apply to x, a stdio server", stdio,
                "loom.mcp.servers.x.headers.X-Key=k");
        failsNaming("loom.mcp.servers.x.oauth does not apply to x, a stdio server", stdio,
                "loom.mcp.servers.x.oauth.scope=s");
        failsNaming("loom.mcp.servers.x.args does not apply to x, a url server", url, "loom.mcp.servers.x.args[0]=a");
        failsNaming("loom.mcp.servers.x.env does not apply to x, a url server", url, "loom.mcp.servers.x.env.A=b");
        failsNaming("loom.mcp.servers.x.cwd does not apply to x, a url server", url, "loom.mcp.servers.x.cwd=/tmp");
        failsNaming("loom.mcp.servers.x.oauth does not apply to x, not a Streamable HTTP server", url,
                "loom.mcp.servers.x.transport=sse", "loom.mcp.servers.x.oauth.client-id=c",
                "loom.mcp.servers.x.oauth.client-secret=s");
        // a server of the file takes only request-timeout (and oauth when it is a url server) from the properties
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {\"x\": {\"command\": \"node\"}}}");
        failsNaming("loom.mcp.servers.x.args does not apply to x, a server of the mcpServers file",
                "loom.mcp.config-file=" + file, "loom.mcp.servers.x.args[0]=a");
        failsNaming("loom.mcp.servers.x.oauth does not apply to x, a stdio server of the mcpServers file",
                "loom.mcp.config-file=" + file, "loom.mcp.servers.x.oauth.scope=s");
        runner.withPropertyValues("loom.mcp.config-file=" + file, "loom.mcp.servers.x.request-timeout=5s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anHttpServerWithOAuthClientCredentialsGetsAProviderAndTheContextStillConnectsNothing(@TempDir Path dir) {
        runner.withPropertyValues("loom.mcp.servers.remote.url=http://127.0.0.1:1/mcp",
                        "loom.mcp.servers.remote.oauth.client-id=c", "loom.mcp.servers.remote.oauth.client-secret=s",
                        "loom.mcp.oauth.token-store=" + dir.resolve("tokens"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(LoomMcpOAuthProviders.class).providers()).containsOnlyKeys("remote");
                    assertThat(context.getBean(McpServers.class).statuses()).extracting(ServerStatus::state)
                            .containsOnly(ServerState.IDLE);
                });
    }

    @Test
    void offWhenDisabled() {
        runner.withPropertyValues("loom.mcp.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(McpServers.class));
    }

    @Test
    void jackson30IsRefusedWithTheOverrideToSetAndTheVersionHereIsBootsAndWorks() {
        assertThatThrownBy(() -> JacksonCheck.requireSupported(new Version(3, 0, 3, null, "tools.jackson.core",
                "jackson-databind")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("3.0.3").hasMessageContaining("<jackson-bom.version>3.3.0</jackson-bom.version>");
        JacksonCheck.requireSupported(new Version(3, 1, 4, null, "tools.jackson.core", "jackson-databind"));
        // this module's tests run on the Jackson 3 that Spring Boot 4.0.7 manages, under loom-mcp (built with 3.3)
        assertThat(JsonMapper.builder().build().version().toString()).startsWith("3.1.");
    }
}
