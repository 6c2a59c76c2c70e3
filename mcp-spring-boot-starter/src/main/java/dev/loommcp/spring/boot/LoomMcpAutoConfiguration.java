package dev.loommcp.spring.boot;

import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.FileTokenStore;
import dev.loommcp.auth.InMemoryTokenStore;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.auth.TokenStore;
import dev.loommcp.hosts.HttpServerConfig;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerConfig;
import dev.loommcp.spring.ai.LoomToolCallbacks;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of loom-mcp (turn off with {@code loom.mcp.enabled=false}):
 * <ul>
 *   <li>{@link McpServers} from {@link LoomMcpProperties}: nothing is started or connected when the context starts,
 *       so a server that is down never stops the application; each server starts on its first use (a tool listing
 *       or call);</li>
 *   <li>{@link McpServersLifecycle}, which closes the registry (processes ended) and the OAuth providers when the
 *       context stops;</li>
 *   <li>{@link LoomToolCallbacks} for Spring AI's {@code ChatClient} (deliberately no {@code ToolCallbackProvider}
 *       bean: Spring AI would list its tools, starting every server, at context start);</li>
 *   <li>with Actuator's health module: {@link McpServersHealthIndicator} ({@code loomMcp}); with Micrometer:
 *       {@link McpServersMetrics}.</li>
 * </ul>
 * Each bean backs off when the application defines its own. {@link McpClientCustomizer} beans adjust each server's
 * client (handlers, task support), {@link McpServersCustomizer} beans the registry's builder. The context start fails fast, with a message naming the fix, when Jackson 3 on the class path is older than
 * 3.1 or a property is wrong.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "loom.mcp", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LoomMcpProperties.class)
public class LoomMcpAutoConfiguration implements EnvironmentAware {

    /** Creates the configuration, checking the Jackson 3 version first. */
    public LoomMcpAutoConfiguration() {
        JacksonCheck.requireSupported();
    }

    /**
     * Checks the names of the {@code loom.mcp.*} properties before any bean of this configuration is made.
     *
     * @param environment the application's environment
     * @throws IllegalStateException naming the first {@code loom.mcp.*} name that is no property (a typo, or a
     *                               dotted server name not written in brackets)
     */
    @Override
    public void setEnvironment(Environment environment) {
        PropertyChecks.requireKnownNames(environment);
    }

    /**
     * The OAuth providers of the servers whose properties have an {@code oauth.client-id}, by server name.
     *
     * @param properties the properties
     * @return the providers (closed by {@link McpServersLifecycle})
     */
    @Bean
    @ConditionalOnMissingBean
    LoomMcpOAuthProviders loomMcpOAuthProviders(LoomMcpProperties properties) {
        Map<String, McpOAuth> providers = new LinkedHashMap<>();
        TokenStore store = null;
        for (Map.Entry<String, LoomMcpProperties.Server> e : properties.getServers().entrySet()) {
            LoomMcpProperties.ServerOAuth oauth = e.getValue().getOauth();
            if (oauth.getClientId() == null) {
                continue;
            }
            if (store == null) {
                store = tokenStore(properties);
            }
            McpOAuth.Builder b = McpOAuth.newBuilder().tokenStore(store).scope(oauth.getScope());
            if (oauth.getClientSecret() != null) {
                b.client(oauth.getClientId(), ClientAuthentication.clientSecret(oauth.getClientSecret()))
                        .clientCredentials();
            } else {
                throw new IllegalStateException("loom.mcp.servers." + e.getKey() + ".oauth.client-id is set without"
                        + " oauth.client-secret: a server application authorizes with client credentials (no browser)");
            }
            providers.put(e.getKey(), b.build());
        }
        return new LoomMcpOAuthProviders(providers);
    }

    private static TokenStore tokenStore(LoomMcpProperties properties) {
        if (properties.getOauth().getTokenStore() == null) {
            return new InMemoryTokenStore();
        }
        try {
            return FileTokenStore.open(properties.getOauth().getTokenStore());
        } catch (IOException e) {
            throw new IllegalStateException("loom.mcp.oauth.token-store " + properties.getOauth().getTokenStore()
                    + " could not be opened: " + e.getMessage(), e);
        }
    }

    /**
     * The registry; see the class description. Closed by {@link McpServersLifecycle} (and, as a fallback, when the
     * bean is destroyed).
     *
     * @param properties  the properties
     * @param oauth             the OAuth providers by server
     * @param clientCustomizers the application's client customizers, in order
     * @param customizers       the application's registry customizers, in order
     * @return the registry, no server started
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public McpServers mcpServers(LoomMcpProperties properties, LoomMcpOAuthProviders oauth,
                                 ObjectProvider<McpClientCustomizer> clientCustomizers,
                                 ObjectProvider<McpServersCustomizer> customizers) {
        List<McpClientCustomizer> perClient = clientCustomizers.orderedStream().toList();
        List<ServerConfig> configs = ServerConfigs.of(properties);
        for (String name : oauth.providers().keySet()) {
            if (configs.stream().noneMatch(c -> c.name().equals(name) && c instanceof HttpServerConfig)) {
                throw new IllegalStateException("loom.mcp.servers." + name + ".oauth does not apply to " + name
                        + ", not a Streamable HTTP server (OAuth is offered by the http transport only): remove it");
            }
        }
        Map<String, Duration> timeouts = new LinkedHashMap<>();
        properties.getServers().forEach((name, s) -> {
            if (s.getRequestTimeout() != null) {
                timeouts.put(name, s.getRequestTimeout());
            }
        });
        Duration requestTimeout = PropertyChecks.positive("loom.mcp.request-timeout", properties.getRequestTimeout());
        McpServers.Builder builder = McpServers.newBuilder().addAll(configs)
                .startupTimeout(PropertyChecks.positive("loom.mcp.startup-timeout", properties.getStartupTimeout()))
                .readyTimeout(PropertyChecks.positive("loom.mcp.ready-timeout", properties.getReadyTimeout()))
                .closeTimeout(PropertyChecks.positive("loom.mcp.close-timeout", properties.getCloseTimeout()))
                .restartPolicy(restartPolicy(properties.getRestart()));
        PropertyChecks.named("loom.mcp.separator", properties.getSeparator(),
                () -> builder.separator(properties.getSeparator()));
        builder.clientCustomizer((config, client) -> {
            client.requestTimeout(timeouts.getOrDefault(config.name(), requestTimeout));
            perClient.forEach(c -> c.customize(config, client));
        }).httpCustomizer((config, http) -> {
            McpOAuth provider = oauth.providers().get(config.name());
            if (provider != null) {
                http.authorization(provider);
            }
        });
        customizers.orderedStream().forEach(c -> c.customize(builder));
        return builder.build();
    }

    private static RestartPolicy restartPolicy(LoomMcpProperties.Restart r) {
        if (r.getMaxRestarts() < 0) {
            throw new IllegalStateException("loom.mcp.restart.max-restarts is " + r.getMaxRestarts()
                    + ": it must not be negative (0 never restarts)");
        }
        Duration initial = PropertyChecks.notNegative("loom.mcp.restart.initial-backoff", r.getInitialBackoff());
        Duration max = PropertyChecks.notNegative("loom.mcp.restart.max-backoff", r.getMaxBackoff());
        Duration stable = PropertyChecks.notNegative("loom.mcp.restart.stable-after", r.getStableAfter());
        if (max.compareTo(initial) < 0) {
            throw new IllegalStateException("loom.mcp.restart.max-backoff is " + max
                    + ": it must be at least loom.mcp.restart.initial-backoff (" + initial + ")");
        }
        return new RestartPolicy(r.getMaxRestarts(), initial, max, stable);
    }

    /**
     * Closes the registry and the OAuth providers when the context stops.
     *
     * @param servers the registry
     * @param oauth   the OAuth providers
     * @return the lifecycle
     */
    @Bean
    @ConditionalOnMissingBean
    public McpServersLifecycle mcpServersLifecycle(McpServers servers, LoomMcpOAuthProviders oauth) {
        List<AutoCloseable> close = new ArrayList<>(oauth.providers().values());
        return new McpServersLifecycle(servers, close);
    }

    /**
     * The servers' tools as Spring AI callbacks, for {@code chatClient.prompt().tools(loomTools.asProvider())}.
     *
     * @param servers    the registry
     * @param properties the properties ({@code loom.mcp.tools.list-timeout})
     * @return the callbacks; nothing listed yet
     */
    @Bean
    @ConditionalOnMissingBean
    public LoomToolCallbacks loomToolCallbacks(McpServers servers, LoomMcpProperties properties) {
        return LoomToolCallbacks.newBuilder(servers).listTimeout(
                PropertyChecks.positive("loom.mcp.tools.list-timeout", properties.getTools().getListTimeout())).build();
    }

    /** Actuator health, when {@code spring-boot-health} is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {
        @Bean
        @ConditionalOnMissingBean(name = "loomMcpHealthIndicator")
        McpServersHealthIndicator loomMcpHealthIndicator(McpServers servers) {
            return new McpServersHealthIndicator(servers);
        }
    }

    /** Micrometer gauges, when Micrometer is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        McpServersMetrics loomMcpMetrics(McpServers servers) {
            return new McpServersMetrics(servers);
        }
    }
}
