package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.McpTransport;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The shape of the client API: one builder that holds each setting, client interfaces that declare each signature
 * once, and the JSON-RPC errors whose data {@link McpRpcException} reads.
 */
class ClientApiShapeTest {

    private static final List<Class<?>> CLIENT_INTERFACES = List.of(McpToolCaller.class, McpTools.class,
            McpPrompts.class, McpResources.class, McpSkillServer.class, McpUtilities.class);

    /** A transport that is never opened: building a client's settings does not touch it. */
    private static McpTransport unopened() {
        return (McpTransport) Proxy.newProxyInstance(McpTransport.class.getClassLoader(),
                new Class<?>[] {McpTransport.class}, (proxy, method, args) -> {
                    throw new AssertionError("the transport was used: " + method.getName());
                });
    }

    private static String signature(Method m) {
        return m.getName() + Arrays.toString(m.getParameterTypes());
    }

    @Test
    void everySignatureOfTheClientInterfacesIsDeclaredOnce() {
        Map<String, List<String>> declaredIn = new HashMap<>();
        for (Class<?> type : CLIENT_INTERFACES) {
            for (Method m : type.getDeclaredMethods()) {
                if (!m.isSynthetic() && !Modifier.isStatic(m.getModifiers())) {
                    declaredIn.computeIfAbsent(signature(m), k -> new ArrayList<>()).add(type.getSimpleName());
                }
            }
        }
        assertThat(declaredIn).allSatisfy((sig, types) -> assertThat(types).as(sig).hasSize(1));
    }

    @Test
    void theInterfacesAreComposedNotRepeated() {
        assertThat(McpToolCaller.class).isAssignableFrom(McpTools.class);
        assertThat(McpSkillServer.class.getInterfaces())
                .containsExactlyInAnyOrder(McpToolCaller.class, McpPrompts.class, McpResources.class);
        assertThat(McpClient.class.getInterfaces())
                .containsExactlyInAnyOrder(McpTools.class, McpSkillServer.class, McpUtilities.class,
                        AutoCloseable.class);
    }

    @Test
    void theClientOverridesNoShortFormItInherits() {
        List<String> overridden = new ArrayList<>();
        for (Class<?> type : CLIENT_INTERFACES) {
            for (Method m : type.getDeclaredMethods()) {
                if (m.isDefault()) {
                    try {
                        McpClient.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
                        overridden.add(signature(m));
                    } catch (NoSuchMethodException expected) {
                        // inherited as declared, with its Javadoc
                    }
                }
            }
        }
        assertThat(overridden).isEmpty();
    }

    @Test
    void theBuilderIsNestedAndItsDefaultsReachTheSession() {
        McpClient.Builder b = McpClient.newBuilder(unopened());
        SessionConfig c = ClientConfigs.of(b);
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.probeTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.protocolMode()).isEqualTo(ProtocolMode.AUTO);
        assertThat(c.outputSchemaValidation()).isEqualTo(OutputSchemaValidation.WARN);
        assertThat(c.maxListPages()).isEqualTo(1000);
        assertThat(c.maxConcurrentServerRequests()).isEqualTo(McpClient.DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS);
        assertThat(c.maxInputRounds()).isEqualTo(10);
        assertThat(c.keepNotifications()).isFalse();
        assertThat(c.notificationQueueCapacity()).isEqualTo(1024);
        assertThat(c.notificationQueueBytes()).isEqualTo(16L << 20);
        assertThat(c.listenerQueueCapacity()).isEqualTo(65_536);
        assertThat(c.listenerQueueBytes()).isEqualTo(32L << 20);
        assertThat(c.resultCacheEntries()).isEqualTo(1024);
        assertThat(c.resultCacheBytes()).isEqualTo(32L << 20);
        assertThat(c.elicitationHandler()).isNull();
        assertThat(c.taskSupport()).isNull();
        assertThat(c.eraVerdictFile()).isNull();
        assertThat(c.clientCapabilities().elicitation()).isNull();
    }

    @Test
    void eachSettingIsCheckedWhereItIsSetNamingTheOption() {
        Map<String, Consumer<McpClient.Builder>> bad = Map.of(
                "requestTimeout", b -> b.requestTimeout(Duration.ZERO),
                "connectTimeout", b -> b.connectTimeout(Duration.ofSeconds(-1)),
                "probeTimeout", b -> b.probeTimeout(Duration.ZERO),
                "maxListPages", b -> b.maxListPages(0),
                "maxConcurrentServerRequests", b -> b.maxConcurrentServerRequests(0),
                "maxInputRounds", b -> b.maxInputRounds(0),
                "notificationQueueBytes", b -> b.notificationQueueBytes(0),
                "notificationQueueCapacity", b -> b.notificationQueueCapacity(0),
                "listenerQueueCapacity", b -> b.listenerQueueCapacity(0),
                "listenerQueueBytes", b -> b.listenerQueueBytes(0));
        bad.forEach((option, set) -> assertThatThrownBy(() -> set.accept(McpClient.newBuilder(unopened())))
                .as(option).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(option));
        assertThatThrownBy(() -> McpClient.newBuilder(unopened()).protocolMode(null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> McpClient.newBuilder(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("transport");
    }

    @Test
    void aSettingReachesTheSessionAsSet() {
        SessionConfig c = ClientConfigs.of(McpClient.newBuilder(unopened()).requestTimeout(Duration.ofSeconds(7))
                .maxInputRounds(3).protocolMode(ProtocolMode.LEGACY).resultCacheLimits(5, 6)
                .elicitationHandler(r -> null, false));
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(c.maxInputRounds()).isEqualTo(3);
        assertThat(c.protocolMode()).isEqualTo(ProtocolMode.LEGACY);
        assertThat(c.resultCacheEntries()).isEqualTo(5);
        assertThat(c.resultCacheBytes()).isEqualTo(6);
        assertThat(c.clientCapabilities().elicitation()).isNotNull();
        assertThat(c.elicitationUrlMode()).isFalse();
    }

    @Test
    void theModernErrorsAreReadFromTheirJsonRpcErrorOnly() {
        McpRpcException missing = new McpRpcException("tools/call", RequestId.of(1),
                new JsonRpcError(JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY, "missing",
                        Map.of("requiredCapabilities", Map.of("sampling", Map.of()))));
        assertThat(missing.requiredCapabilities()).containsOnlyKeys("sampling");
        assertThat(missing.supportedVersions()).isEmpty();
        McpRpcException version = new McpRpcException("server/discover", RequestId.of(2),
                new JsonRpcError(JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION, "unsupported",
                        Map.of("supported", List.of("2027-01-01", 3))));
        assertThat(version.supportedVersions()).containsExactly("2027-01-01");
        assertThat(version.requiredCapabilities()).isEmpty();
        // the same data under another code is not read as either
        McpRpcException other = new McpRpcException("tools/call", RequestId.of(3), new JsonRpcError(
                JsonRpcError.INVALID_PARAMS, "bad", Map.of("supported", List.of("x"), "requiredCapabilities", Map.of(
                "a", Map.of()))));
        assertThat(other.supportedVersions()).isEmpty();
        assertThat(other.requiredCapabilities()).isEmpty();
    }
}
