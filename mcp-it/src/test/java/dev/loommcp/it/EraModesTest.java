package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpRpcException;
import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.it.servers.HttpModernFixture;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every protocol mode against every server over both transports: which era each combination ends in (the full
 * contracts run for some of them: {@link ModernEraContract}, {@link DualEraLegacyContract},
 * {@link ReferenceServerContract}), and that each mode that cannot work against a server fails at connect with an
 * error that says why (LEGACY against the modern-only fixture, MODERN against server-everything). One HTTP server
 * of each kind serves the class; over stdio each connect starts its own process.
 */
@ExtendWith(LeakCheck.class)
class EraModesTest {

    /** The servers of the matrix. */
    enum Server {
        /** server-everything: 2025 only. */
        EVERYTHING,
        /** The fixture serving both eras. */
        DUAL_ERA,
        /** The fixture refusing the 2025 era. */
        MODERN_ONLY
    }

    enum Wire { STDIO, HTTP }

    private static final ProtocolMode PINNED_MODERN = ProtocolMode.pinned(ProtocolMode.MODERN_PROTOCOL_VERSION);
    private static final ProtocolMode PINNED_2025_11 = ProtocolMode.pinned("2025-11-25");
    private static final ProtocolMode PINNED_2025_06 = ProtocolMode.pinned("2025-06-18");

    private static HttpReferenceServer everything;
    private static HttpModernFixture dualEra;
    private static HttpModernFixture modernOnly;

    @BeforeAll
    static void startServers() throws Exception {
        everything = new HttpReferenceServer();
        dualEra = new HttpModernFixture(ModernFixture.Variant.DUAL_ERA);
        modernOnly = new HttpModernFixture(ModernFixture.Variant.MODERN_ONLY);
    }

    @AfterAll
    static void stopServers() {
        for (AutoCloseable s : new AutoCloseable[] {everything, dualEra, modernOnly}) {
            try {
                if (s != null) {
                    s.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static McpTransport transport(Wire wire, Server server) {
        if (wire == Wire.STDIO) {
            List<String> argv = switch (server) {
                case EVERYTHING -> ReferenceServer.stdioCommand();
                case DUAL_ERA -> ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA);
                case MODERN_ONLY -> ModernFixture.stdioCommand(ModernFixture.Variant.MODERN_ONLY);
            };
            return StdioTransport.newBuilder(argv).build();
        }
        URI endpoint = switch (server) {
            case EVERYTHING -> everything.endpoint();
            case DUAL_ERA -> dualEra.endpoint();
            case MODERN_ONLY -> modernOnly.endpoint();
        };
        return HttpTransport.newBuilder(endpoint).build();
    }

    static Stream<Arguments> workingCombinations() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (Wire wire : Wire.values()) {
            b.add(Arguments.of(wire, Server.EVERYTHING, ProtocolMode.AUTO, Era.LEGACY, "2025-11-25"));
            b.add(Arguments.of(wire, Server.EVERYTHING, ProtocolMode.LEGACY, Era.LEGACY, "2025-11-25"));
            b.add(Arguments.of(wire, Server.EVERYTHING, PINNED_2025_11, Era.LEGACY, "2025-11-25"));
            b.add(Arguments.of(wire, Server.DUAL_ERA, ProtocolMode.AUTO, Era.MODERN, "2026-07-28"));
            b.add(Arguments.of(wire, Server.DUAL_ERA, ProtocolMode.MODERN, Era.MODERN, "2026-07-28"));
            b.add(Arguments.of(wire, Server.DUAL_ERA, PINNED_MODERN, Era.MODERN, "2026-07-28"));
            b.add(Arguments.of(wire, Server.DUAL_ERA, ProtocolMode.LEGACY, Era.LEGACY, "2025-11-25"));
            b.add(Arguments.of(wire, Server.DUAL_ERA, PINNED_2025_06, Era.LEGACY, "2025-06-18"));
            b.add(Arguments.of(wire, Server.MODERN_ONLY, ProtocolMode.AUTO, Era.MODERN, "2026-07-28"));
            b.add(Arguments.of(wire, Server.MODERN_ONLY, ProtocolMode.MODERN, Era.MODERN, "2026-07-28"));
            b.add(Arguments.of(wire, Server.MODERN_ONLY, PINNED_MODERN, Era.MODERN, "2026-07-28"));
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3} {4}")
    @MethodSource("workingCombinations")
    void eachModeEndsInTheRightEra(Wire wire, Server server, ProtocolMode mode, Era era, String version)
            throws Exception {
        try (McpClient client = McpClient.newBuilder(transport(wire, server)).protocolMode(mode)
                .probeTimeout(FixtureClients.PROBE_TIMEOUT).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(era);
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo(version);
            assertThat(client.discoverResult().isPresent()).isEqualTo(era == Era.MODERN);
            assertThat(client.callTool("echo", Map.of("message", "x")).text()).isEqualTo("Echo: x");
        }
    }

    static Stream<Arguments> impossibleCombinations() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (Wire wire : Wire.values()) {
            b.add(Arguments.of(wire, Server.MODERN_ONLY, ProtocolMode.LEGACY));
            b.add(Arguments.of(wire, Server.MODERN_ONLY, PINNED_2025_11));
            b.add(Arguments.of(wire, Server.EVERYTHING, ProtocolMode.MODERN));
            b.add(Arguments.of(wire, Server.EVERYTHING, PINNED_MODERN));
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1} {2} fails")
    @MethodSource("impossibleCombinations")
    void aModeTheServerCannotServeFailsAtConnectAndSaysWhy(Wire wire, Server server, ProtocolMode mode)
            throws Exception {
        try (McpClient client = McpClient.newBuilder(transport(wire, server)).protocolMode(mode)
                .probeTimeout(FixtureClients.PROBE_TIMEOUT).requestTimeout(Duration.ofSeconds(30)).build()) {
            if (server == Server.MODERN_ONLY) {
                // the server answers initialize with -32022 naming what it speaks: no version in common
                assertThatThrownBy(client::connect)
                        .isInstanceOfSatisfying(McpRpcException.class,
                                e -> assertThat(e.supportedVersions()).contains(ProtocolMode.MODERN_PROTOCOL_VERSION));
            } else {
                // a 2025-only server rejects the modern request (stdio -32601, HTTP 400 -32000); a forced mode
                // never falls back
                assertThatThrownBy(client::connect).isInstanceOf(McpException.class)
                        .hasMessageContaining("server/discover");
            }
            assertThat(client.isConnected()).isFalse();
            assertThat(client.era()).isEmpty();
        }
    }

    @Test
    void aLegacyVerdictIsCachedPerHttpEndpoint() throws Exception {
        for (int round = 0; round < 2; round++) {
            RecordingTransport recording = new RecordingTransport(transport(Wire.HTTP, Server.EVERYTHING));
            try (McpClient client = McpClient.newBuilder(recording).protocolMode(ProtocolMode.AUTO)
                    .probeTimeout(FixtureClients.PROBE_TIMEOUT).requestTimeout(Duration.ofSeconds(30)).build()) {
                client.connect();
                assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
                if (round == 1) {
                    // the endpoint's verdict is known: the second client opens with initialize, no probe
                    assertThat(recording.sent()).first().matches(m -> m instanceof JsonRpcMessage.Request r
                            && r.method().equals("initialize"));
                }
            }
        }
    }
}
