package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;

/**
 * {@link ProtocolMode#AUTO} (MODERN-ERA.md C.2) against the scripted server: every kind of era evidence on the
 * session's own transport (HTTP-like, no probe transport), the throw-away probe transport of a stdio-like one, and
 * the per-server verdict cache with its re-probe. Each test checks through {@link Sessions} that nothing is left
 * pending or running, and that every probe transport was closed.
 */
class McpClientAutoEraTest {

    static final String V = ProtocolMode.MODERN_PROTOCOL_VERSION;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** An HTTP status failure, as the HTTP transport reports a 4xx/5xx without a JSON-RPC body. */
    static final class StatusException extends McpTransportException {
        private final int status;

        StatusException(int status) {
            super("HTTP " + status);
            this.status = status;
        }

        @Override
        public OptionalInt httpStatus() {
            return OptionalInt.of(status);
        }
    }

    Session auto(Mode mode, Consumer<ScriptedTransport> script) {
        return sessions.unconnected(mode, script, b -> b.protocolMode(ProtocolMode.AUTO)
                .probeTimeout(Duration.ofMillis(300)));
    }

    static void assertLegacy(Session s) {
        assertThat(s.client().era().orElseThrow()).isEqualTo(Era.LEGACY);
        assertThat(s.client().initializeResult()).isPresent();
        JsonRpcMessage.Request init = s.server().awaitRequest("initialize");
        // no routing on the fallback initialize: an HTTP transport then follows the 2025 rules
        assertThat(s.server().recordOf(m -> m == init).routing()).isEmpty();
        assertThat(s.server().notifications("notifications/initialized")).hasSize(1);
    }

    static void assertModern(Session s) {
        assertThat(s.client().era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(s.client().discoverResult()).isPresent();
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ no probe

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aValidDiscoverResultIsModern(Mode mode) throws Exception {
        Session s = auto(mode, McpClientModernEraTest::modern);
        s.client().connect();
        assertModern(s);
        assertThat(s.server().requests("server/discover")).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void methodNotFoundIsLegacy(Mode mode) throws Exception {
        Session s = auto(mode, t -> { });
        s.client().connect();
        assertLegacy(s);
        assertThat(s.server().requests("server/discover")).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {-32000, -32602, -32603, -32001})
    void anyOtherJsonRpcErrorIsLegacy(int code) throws Exception {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> new JsonRpcError(code,
                "Bad Request: Server not initialized", null)));
        s.client().connect();
        assertLegacy(s);
    }

    @Test
    void aResultThatIsNotADiscoverResultIsLegacy() throws Exception {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> Map.of()));
        s.client().connect();
        assertLegacy(s);
    }

    @Test
    void aDiscoverResultSharingNoVersionIsLegacy() throws Exception {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> Map.of("supportedVersions",
                List.of("2099-01-01"), "capabilities", Map.of(), "resultType", "complete")));
        s.client().connect();
        assertLegacy(s);
    }

    @Test
    void unsupportedVersionNamingAModernVersionIsModernAfterTheCorrectiveRetry() throws Exception {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        Session s = auto(Mode.BLOCKING, t -> {
            McpClientModernEraTest.modern(t);
            t.on("server/discover", r -> n.incrementAndGet() == 1 ? new JsonRpcError(-32022, "unsupported",
                    Map.of("supported", List.of(V), "requested", V)) : McpClientModernEraTest.discoverResult());
        });
        s.client().connect();
        assertModern(s);
        assertThat(s.server().requests("server/discover")).hasSize(2);
    }

    @Test
    void unsupportedVersionNamingOnlyLegacyVersionsIsLegacy() throws Exception {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> new JsonRpcError(-32022, "unsupported",
                Map.of("supported", List.of("2025-11-25"), "requested", V))));
        s.client().connect();
        assertLegacy(s);
        assertThat(s.server().requests("server/discover")).hasSize(1);
    }

    @Test
    void headerMismatchIsARecognizedModernErrorAndFailsConnect() {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> new JsonRpcError(-32020,
                "Header mismatch", Map.of("mismatch", "Mcp-Method"))));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOfSatisfying(McpRpcException.class,
                e -> assertThat(e.code()).isEqualTo(-32020));
        assertThat(s.server().requests("initialize")).isEmpty();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void missingCapabilityIsARecognizedModernErrorAndFailsConnectTyped() {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> new JsonRpcError(-32021,
                "Missing capability", Map.of("requiredCapabilities", Map.of("roots", Map.of())))));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOfSatisfying(McpRpcException.class, e -> assertThat(e.code()).isEqualTo(-32021));
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 405, 415})
    void anHttp4xxWithoutJsonRpcBodyIsLegacy(int status) throws Exception {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> {
            t.failSend(r.id(), new StatusException(status));
            return ScriptedTransport.HOLD;
        }));
        s.client().connect();
        assertLegacy(s);
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403, 429, 500, 502, 503})
    void authorizationFailuresAndServerErrorsAreNotEraEvidence(int status) {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> {
            t.failSend(r.id(), new StatusException(status));
            return ScriptedTransport.HOLD;
        }));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOfSatisfying(McpTransportException.class,
                e -> assertThat(e.httpStatus()).hasValue(status));
        assertThat(s.server().requests("initialize")).isEmpty();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void aNetworkFailureIsNotEraEvidence() {
        Session s = auto(Mode.BLOCKING, t -> t.on("server/discover", r -> {
            t.failSend(r.id(), new McpTransportException("connection refused"));
            return ScriptedTransport.HOLD;
        }));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOf(McpTransportException.class)
                .hasMessageContaining("connection refused");
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    @Test
    void silenceWithoutAProbeTransportIsATimeoutNotEvidence() {
        Session s = auto(Mode.BLOCKING, t -> t.hold("server/discover"));
        assertThatThrownBy(() -> s.client().connect(RequestOptions.ofTimeout(Duration.ofMillis(300))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("server/discover");
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ probe

    /** A stdio-like server whose probe transports answer {@code server/discover} as {@code probe} scripts. */
    Session probed(Consumer<ScriptedTransport> server, Consumer<ScriptedTransport> probe) {
        return auto(Mode.INLINE, t -> {
            server.accept(t);
            t.probes(() -> {
                ScriptedTransport p = ScriptedTransport.create(Mode.INLINE);
                probe.accept(p);
                return p;
            });
        });
    }

    static ScriptedTransport onlyProbe(Session s) {
        List<ScriptedTransport> probes = s.server().probesMade();
        assertThat(probes).hasSize(1);
        ScriptedTransport p = probes.get(0);
        dev.loommcp.testing.Await.until("the probe transport is closed", p::isClosed);
        JsonRpcMessage.Request discover = p.awaitRequest("server/discover");
        assertThat(p.recordOf(m -> m == discover).routing()).isPresent();
        assertThat(discover.params()).containsKey("_meta");
        return p;
    }

    @Test
    void aProbeAnsweringADiscoverResultIsModernWithoutASecondDiscover() throws Exception {
        Session s = probed(McpClientModernEraTest::modern, McpClientModernEraTest::modern);
        s.client().connect();
        assertModern(s);
        onlyProbe(s);
        assertThat(s.server().requests("server/discover")).isEmpty();
        assertThat(s.client().serverInfo().orElseThrow().name()).isEqualTo("modern-srv");
        s.client().callTool("echo", Map.of());
        assertThat(s.server().sent().get(0)).isInstanceOfSatisfying(JsonRpcMessage.Request.class,
                r -> assertThat(r.method()).isEqualTo("tools/call"));
    }

    @Test
    void aProbeAnsweringMethodNotFoundIsLegacy() throws Exception {
        Session s = probed(t -> { }, p -> { });
        s.client().connect();
        assertLegacy(s);
        onlyProbe(s);
        assertThat(s.server().requests("server/discover")).isEmpty(); // the session's process never saw a probe
    }

    @Test
    void aSilentProbeIsLegacyAfterTheProbeTimeout() throws Exception {
        Session s = probed(t -> { }, p -> p.hold("server/discover"));
        s.client().connect();
        assertLegacy(s);
        onlyProbe(s);
        assertThat(s.server().requests("server/discover")).isEmpty();
    }

    /**
     * {@code close()} during the probe ends {@code connect()} at once with {@link McpClosedException}: the probe's
     * own transport is not the session's, so before, connect went on waiting for the probe timeout.
     */
    @Test
    void closeDuringTheProbeEndsConnectAtOnce() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.probes(() -> {
            ScriptedTransport p = ScriptedTransport.create(Mode.INLINE);
            p.hold("server/discover");
            return p;
        }), b -> b.protocolMode(ProtocolMode.AUTO).probeTimeout(Duration.ofSeconds(30)));
        dev.loommcp.testing.BackgroundCall<Void> connect = dev.loommcp.testing.BackgroundCall.start("connect", () -> {
            s.client().connect();
            return null;
        });
        dev.loommcp.testing.Await.until("the probe is sent", () -> !s.server().probesMade().isEmpty()
                && !s.server().probesMade().get(0).requests("server/discover").isEmpty());
        long start = System.nanoTime();
        s.client().close();
        assertThat(connect.failure()).isInstanceOf(dev.loommcp.McpClosedException.class)
                .hasMessageContaining("closed during the era probe");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("connect ended by the close, not the probe timeout")
                .isLessThan(Duration.ofSeconds(15));
        dev.loommcp.testing.Await.until("the probe transport is closed", s.server().probesMade().get(0)::isClosed);
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    /**
     * A modern-only server slower to start than the probe timeout: the silent probe says legacy, the session's own
     * process refuses {@code initialize} with {@code -32022}, so the verdict failed and {@code server/discover} on the
     * same connection makes it modern (C.2: re-probe when the verdict fails).
     */
    @Test
    void aSilentProbeOfAModernOnlyServerEndsModernWhenInitializeIsRefused() throws Exception {
        Session s = probed(McpClientModernEraTest::modern, p -> p.hold("server/discover"));
        s.client().connect();
        assertThat(s.client().era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(s.client().discoverResult()).isPresent();
        onlyProbe(s);
        assertThat(s.server().requests("initialize")).hasSize(1); // refused with -32022
        assertThat(s.server().requests("server/discover")).hasSize(1);
        assertThat(s.client().callTool("echo", Map.of()).content()).hasSize(1);
    }

    /**
     * A server that refuses both eras (initialize with -32022, server/discover with -32601) fails the connect in AUTO
     * mode saying so, not advising AUTO mode, which the client is already in.
     */
    @Test
    void aServerRefusingBothErasFailsSayingSoInAutoMode() {
        Session s = probed(t -> {
            t.on("initialize", r -> new JsonRpcError(-32022, "unsupported", null));
            t.on("server/discover", r -> new JsonRpcError(-32601, "method not found", null));
        }, p -> p.hold("server/discover"));
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("refused initialize with -32022")
                .hasMessageContaining("it speaks neither era as this client does")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("protocol mode AUTO"));
    }

    @Test
    void aProbeWhoseProcessExitsIsLegacy() throws Exception {
        Session s = probed(t -> { }, p -> p.on("server/discover", r -> {
            p.lose(new McpTransportException("server process exited with code 1"));
            return ScriptedTransport.HOLD;
        }));
        s.client().connect();
        assertLegacy(s);
        onlyProbe(s);
    }

    @Test
    void aProbeThatCannotStartIsLegacyAndTheSessionTransportDecides() throws Exception {
        Session s = probed(t -> { }, p -> p.failOpen(new McpTransportException("cannot start")));
        s.client().connect();
        assertLegacy(s);
    }

    @Test
    void aProbeAnsweringARecognizedModernErrorIsModernAndTheSessionTransportIsAsked() {
        Session s = probed(t -> t.on("server/discover", r -> new JsonRpcError(-32021, "missing",
                Map.of("requiredCapabilities", Map.of("sampling", Map.of())))), p -> p.on("server/discover",
                r -> new JsonRpcError(-32021, "missing", Map.of("requiredCapabilities", Map.of("sampling",
                        Map.of())))));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOfSatisfying(McpRpcException.class, e -> assertThat(e.code()).isEqualTo(-32021));
        onlyProbe(s);
        assertThat(s.server().requests("initialize")).isEmpty();
    }

    @Test
    void theConnectDeadlineBoundsTheProbe() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.probes(() -> {
            ScriptedTransport p = ScriptedTransport.create(Mode.INLINE);
            p.hold("server/discover");
            return p;
        }), b -> b.protocolMode(ProtocolMode.AUTO).probeTimeout(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> s.client().connect(RequestOptions.ofTimeout(Duration.ofMillis(200))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("probe");
        dev.loommcp.testing.Await.until("the probe transport is closed", s.server().probesMade().get(0)::isClosed);
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void aCancelledConnectStopsTheProbe() throws Exception {
        CancellationToken token = CancellationToken.create();
        Session s = sessions.unconnected(Mode.INLINE, t -> t.probes(() -> {
            ScriptedTransport p = ScriptedTransport.create(Mode.INLINE);
            p.on("server/discover", r -> {
                token.cancel("user");
                return ScriptedTransport.HOLD;
            });
            return p;
        }), b -> b.protocolMode(ProtocolMode.AUTO).probeTimeout(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> s.client().connect(RequestOptions.ofToken(token)))
                .isInstanceOf(McpCancelledException.class).hasMessageContaining("user");
        dev.loommcp.testing.Await.until("the probe transport is closed", s.server().probesMade().get(0)::isClosed);
    }

    // ------------------------------------------------------------------------------------------------ cache

    Session keyed(String key, Mode mode, Consumer<ScriptedTransport> script) {
        return auto(mode, t -> {
            script.accept(t.serverKey(key));
            t.probes(() -> {
                ScriptedTransport p = ScriptedTransport.create(Mode.INLINE);
                script.accept(p);
                return p;
            });
        });
    }

    @Test
    void aCachedLegacyVerdictSkipsTheProbe() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Session first = keyed(key, Mode.INLINE, t -> { });
        first.client().connect();
        assertLegacy(first);
        assertThat(first.server().probesMade()).hasSize(1);

        Session second = keyed(key, Mode.INLINE, t -> { });
        second.client().connect();
        assertLegacy(second);
        assertThat(second.server().probesMade()).isEmpty();
        assertThat(second.server().requests("server/discover")).isEmpty();
    }

    @Test
    void aCachedModernVerdictSkipsTheProbeButAsksTheSessionTransport() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Session first = keyed(key, Mode.INLINE, McpClientModernEraTest::modern);
        first.client().connect();
        assertModern(first);

        Session second = keyed(key, Mode.INLINE, McpClientModernEraTest::modern);
        second.client().connect();
        assertModern(second);
        assertThat(second.server().probesMade()).isEmpty();
        assertThat(second.server().requests("server/discover")).hasSize(1); // ttlMs 0: asked again
    }

    @Test
    void aFreshPublicDiscoverResultIsAdoptedWithoutAnyWireTraffic() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Consumer<ScriptedTransport> script = t -> {
            McpClientModernEraTest.modern(t);
            t.on("server/discover", r -> {
                Map<String, Object> d = McpClientModernEraTest.discoverResult();
                d.put("ttlMs", 60_000);
                d.put("cacheScope", "public");
                return d;
            });
        };
        Session first = keyed(key, Mode.BLOCKING, script);
        first.client().connect();
        assertModern(first);

        Session second = keyed(key, Mode.BLOCKING, script);
        second.client().connect();
        assertModern(second);
        assertThat(second.server().sent()).isEmpty();
        assertThat(second.client().instructions().orElseThrow()).isEqualTo("use echo");
    }

    @Test
    void anAdoptedDiscoverResultThatTheFirstRequestContradictsIsDropped() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Consumer<ScriptedTransport> modern = t -> {
            McpClientModernEraTest.modern(t);
            t.on("server/discover", r -> {
                Map<String, Object> d = McpClientModernEraTest.discoverResult();
                d.put("ttlMs", 60_000);
                d.put("cacheScope", "public");
                return d;
            });
        };
        Session first = keyed(key, Mode.BLOCKING, modern);
        first.client().connect();
        assertModern(first);

        Session second = keyed(key, Mode.BLOCKING, t -> t.on("tools/list", r -> new JsonRpcError(-32000,
                "Bad Request: Server not initialized", null))); // the server went back to 2025
        second.client().connect();
        assertThat(second.client().era().orElseThrow()).isEqualTo(Era.MODERN); // adopted without asking
        assertThatThrownBy(() -> second.client().listTools(null)).isInstanceOf(McpRpcException.class);

        Session third = keyed(key, Mode.BLOCKING, t -> { });
        third.client().connect();
        assertLegacy(third);
        assertThat(third.server().probesMade()).hasSize(1); // probed again
    }

    @Test
    void aCachedModernVerdictThatFailsIsDroppedAndTheServerIsInitialized() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Session first = keyed(key, Mode.BLOCKING, McpClientModernEraTest::modern);
        first.client().connect();
        assertModern(first);

        Session second = keyed(key, Mode.BLOCKING, t -> { }); // the server went back to 2025
        second.client().connect();
        assertLegacy(second);

        Session third = keyed(key, Mode.BLOCKING, t -> { });
        third.client().connect();
        assertLegacy(third);
        assertThat(third.server().requests("server/discover")).isEmpty(); // now cached legacy
    }

    @Test
    void aCachedLegacyVerdictRefusedWithUnsupportedVersionProbesAgain() throws Exception {
        String key = "k-" + UUID.randomUUID();
        Session first = keyed(key, Mode.INLINE, t -> { });
        first.client().connect();
        assertLegacy(first);

        Session second = keyed(key, Mode.INLINE, McpClientModernEraTest::modern); // now modern-only
        second.client().connect();
        assertThat(second.client().era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(second.client().discoverResult()).isPresent();
        assertThat(second.server().requests("initialize")).hasSize(1); // refused with -32022
        assertThat(second.server().requests("server/discover")).hasSize(1);

        Session third = keyed(key, Mode.INLINE, McpClientModernEraTest::modern);
        third.client().connect();
        assertModern(third);
        assertThat(third.server().requests("initialize")).isEmpty();
        assertThat(third.server().probesMade()).isEmpty();
    }

    @Test
    void legacyModeAgainstAModernOnlyServerFailsTyped() {
        Session s = sessions.unconnected(Mode.INLINE, McpClientModernEraTest::modern,
                b -> b.protocolMode(ProtocolMode.LEGACY));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOfSatisfying(McpRpcException.class,
                e -> assertThat(e.supportedVersions()).containsExactly(V));
        assertThat(s.server().requests("server/discover")).isEmpty();
    }

    @Test
    void legacyModeNeverProbes() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.probes(() -> {
            throw new AssertionError("probed");
        }), b -> b.protocolMode(ProtocolMode.LEGACY));
        s.client().connect();
        assertLegacy(s);
        assertThat(s.server().requests("server/discover")).isEmpty();
    }

    @Test
    void modernModeNeverUsesTheProbeTransport() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> {
            McpClientModernEraTest.modern(t);
            t.probes(() -> {
                throw new AssertionError("probed");
            });
        }, b -> b.protocolMode(ProtocolMode.MODERN));
        s.client().connect();
        assertModern(s);
        assertThat(s.server().requests("server/discover")).hasSize(1);
    }
}
