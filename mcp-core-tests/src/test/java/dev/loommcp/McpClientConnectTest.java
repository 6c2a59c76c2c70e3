package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Root;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;

/** {@link McpClient#connect()}: the {@code initialize} handshake, version negotiation and a bounded handshake. */
class McpClientConnectTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @ParameterizedTest
    @EnumSource(Mode.class)
    void sendsInitializeOfferingTheLatestVersionThenInitialized(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.serverInfo(Map.of("name", "srv", "version", "2.0", "title", "Server"))
                        .serverCapabilities(Map.of("tools", Map.of("listChanged", true), "logging", Map.of())),
                b -> b.clientInfo(Implementation.of("test-agent", "9.9")));

        List<JsonRpcMessage> sent = s.server().sent();
        assertThat(sent).hasSize(2);
        JsonRpcMessage.Request init = (JsonRpcMessage.Request) sent.get(0);
        assertThat(init.method()).isEqualTo("initialize");
        assertThat(init.params()).containsEntry("protocolVersion", "2025-11-25")
                .containsEntry("clientInfo", Map.of("name", "test-agent", "version", "9.9"))
                .containsEntry("capabilities", Map.of());
        assertThat(sent.get(1)).isEqualTo(new JsonRpcMessage.Notification("notifications/initialized", null));

        McpClient c = s.client();
        assertThat(c.isConnected()).isTrue();
        assertThat(c.isClosed()).isFalse();
        assertThat(c.era().orElseThrow()).isEqualTo(Era.LEGACY);
        assertThat(c.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
        assertThat(c.serverInfo().orElseThrow().name()).isEqualTo("srv");
        assertThat(c.serverInfo().orElseThrow().title()).isEqualTo("Server");
        assertThat(c.serverCapabilities().orElseThrow().hasTools()).isTrue();
        assertThat(c.serverCapabilities().orElseThrow().hasLogging()).isTrue();
        assertThat(c.serverCapabilities().orElseThrow().hasResources()).isFalse();
        assertThat(s.server().handshakeVersion()).contains("2025-11-25");
        assertThat(s.server().openCount()).isEqualTo(1);
    }

    @Test
    void defaultClientInfoIsSent() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        assertThat(s.server().awaitRequest("initialize").params().get("clientInfo"))
                .isEqualTo(Map.of("name", "loom-mcp", "version", "0.1.0"));
    }

    @Test
    void instructionsAndMetaOfTheResultAreKept() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("initialize", r -> {
            Map<String, Object> result = new java.util.LinkedHashMap<>(t.initializeResult());
            result.put("instructions", "use the echo tool");
            result.put("_meta", Map.of("k", "v"));
            return result;
        }), b -> b);
        assertThat(s.client().instructions().orElseThrow()).isEqualTo("use the echo tool");
        assertThat(s.client().initializeResult().orElseThrow().meta()).isEqualTo(Map.of("k", "v"));
    }

    @Test
    void declaresCapabilitiesOnlyForTheHandlersThatAreSet() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b
                .rootsHandler(() -> List.of(Root.of("file:///w", "w")))
                .samplingHandler(r -> dev.loommcp.schema.CreateMessageResult.ofText("m", "t"))
                .elicitationHandler(r -> ElicitResult.decline()));
        assertThat(s.server().awaitRequest("initialize").params().get("capabilities")).isEqualTo(Map.of(
                "roots", Map.of("listChanged", true),
                "sampling", Map.of(),
                "elicitation", Map.of("form", Map.of(), "url", Map.of())));
    }

    @Test
    void formOnlyElicitationDeclaresNoUrlMode() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.elicitationHandler(r -> ElicitResult.decline(), false));
        assertThat(s.server().awaitRequest("initialize").params().get("capabilities"))
                .isEqualTo(Map.of("elicitation", Map.of("form", Map.of())));
    }

    @Test
    void onlySamplingDeclaresOnlySampling() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b
                .samplingHandler(r -> dev.loommcp.schema.CreateMessageResult.ofText("m", "t")));
        assertThat(s.server().awaitRequest("initialize").params().get("capabilities"))
                .isEqualTo(Map.of("sampling", Map.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"})
    void acceptsEverySupportedVersion(String version) throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.protocolVersion(version), b -> b);
        assertThat(s.client().protocolVersion().orElseThrow()).isEqualTo(version);
        assertThat(s.server().handshakeVersion()).contains(version);
        assertThat(s.server().notifications("notifications/initialized")).hasSize(1);
        s.client().ping();
    }

    static List<Object[]> refusedVersions() {
        return List.of(new Object[] {Mode.INLINE, "2099-01-01"}, new Object[] {Mode.BLOCKING, "2099-01-01"},
                new Object[] {Mode.INLINE, "2024-10-07"}, new Object[] {Mode.INLINE, "1.0"},
                new Object[] {Mode.INLINE, "2026-07-28"});
    }

    @ParameterizedTest
    @MethodSource("refusedVersions")
    void refusesAnyOtherVersionAndEndsClosed(Mode mode, String version) throws Exception {
        Session s = sessions.unconnected(mode, t -> t.protocolVersion(version), b -> b);
        McpClient c = s.client();

        assertThatThrownBy(c::connect)
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("protocol version '" + version + "'")
                .hasMessageContaining("2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05")
                .hasMessageContaining("scripted-server");

        assertThat(c.isClosed()).isTrue();
        assertThat(c.isConnected()).isFalse();
        assertThat(s.server().isClosed()).isTrue();
        assertThat(s.server().notifications("notifications/initialized")).isEmpty();
        assertThat(s.server().handshakeVersion()).isEmpty();
        assertThatThrownBy(c::ping).isInstanceOf(McpClosedException.class)
                .hasCauseInstanceOf(McpProtocolException.class);
    }

    @Test
    void refusesAResultWithoutProtocolVersion() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.protocolVersion(null), b -> b);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("protocol version (none)");
        assertThat(s.client().isClosed()).isTrue();
    }

    /** {@code "result": null} is a malformed answer like any other, not an internal error. */
    @Test
    void refusesANullResult() {
        Session s = sessions.unconnected(Mode.INLINE,
                t -> t.on("initialize", r -> new dev.loommcp.jsonrpc.JsonRpcMessage.Response(r.id(), null)), b -> b);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("malformed initialize result: null instead of InitializeResult");
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void refusesAResultWithoutServerInfo() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.serverInfo(null), b -> b);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("without serverInfo");
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void refusesAResultWithoutCapabilities() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.serverCapabilities(null), b -> b);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("without capabilities");
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void aServerErrorOnInitializeIsAnRpcExceptionAndClosesTheClient() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.on("initialize",
                r -> new JsonRpcError(-32602, "Unsupported protocol version", Map.of("supported", List.of("x")))),
                b -> b);
        McpRpcException e = (McpRpcException) org.assertj.core.api.Assertions.catchThrowable(s.client()::connect);
        assertThat(e).isNotNull();
        assertThat(e.method()).isEqualTo("initialize");
        assertThat(e.code()).isEqualTo(-32602);
        assertThat(e.data()).isEqualTo(Map.of("supported", List.of("x")));
        assertThat(s.client().isClosed()).isTrue();
        assertThatThrownBy(s.client()::ping).isInstanceOf(McpClosedException.class).hasCause(e);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aHandshakeTimeoutLeavesTheClientClosedWithoutCancellingInitialize(Mode mode) throws Exception {
        Session s = sessions.unconnected(mode, t -> t.hold("initialize"), b -> b);
        McpClient c = s.client();

        assertThatThrownBy(() -> c.connect(RequestOptions.ofTimeout(Duration.ofMillis(100))))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("initialize");

        assertThat(c.isConnected()).isFalse();
        assertThat(c.isClosed()).isTrue();
        assertThat(s.server().isClosed()).isTrue();
        assertThatThrownBy(c::ping).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> c.callTool("x", null)).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(c::listAllTools).isInstanceOf(McpClosedException.class);
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
        assertThat(s.server().sent()).hasSize(1);
        if (mode == Mode.BLOCKING) {
            s.server().awaitSendFinished(s.server().awaitRequest("initialize").id());
            assertThat(s.server().openExchanges()).isZero();
        }
    }

    @Test
    void theBuilderConnectTimeoutBoundsConnect() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.hold("initialize"),
                b -> b.connectTimeout(Duration.ofMillis(100)).requestTimeout(Duration.ofHours(1)));
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpTimeoutException.class);
        assertThat(s.client().isClosed()).isTrue();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCancelledHandshakeLeavesTheClientClosedWithoutCancellingInitialize(Mode mode) throws Exception {
        Session s = sessions.unconnected(mode, t -> t.hold("initialize"), b -> b);
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
            s.client().connect(RequestOptions.ofToken(token));
            return null;
        });
        s.server().awaitRequest("initialize");
        token.cancel("user gave up");

        assertThat(connect.failure()).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining("initialize").hasMessageContaining("user gave up");
        assertThat(s.client().isClosed()).isTrue();
        assertThat(s.client().isConnected()).isFalse();
        assertThatThrownBy(s.client()::ping).isInstanceOf(McpClosedException.class);
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    @Test
    void anAlreadyCancelledTokenSendsNothing() {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        CancellationToken token = CancellationToken.create();
        token.cancel();
        assertThatThrownBy(() -> s.client().connect(RequestOptions.ofToken(token)))
                .isInstanceOf(McpCancelledException.class);
        assertThat(s.server().sent()).isEmpty();
        assertThat(s.client().isClosed()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anInterruptedHandshakeLeavesTheClientClosed(Mode mode) throws Exception {
        Session s = sessions.unconnected(mode, t -> t.hold("initialize"), b -> b);
        BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
            s.client().connect();
            return null;
        });
        s.server().awaitRequest("initialize");
        connect.thread().interrupt();

        assertThat(connect.failure()).isInstanceOf(InterruptedException.class);
        assertThat(s.client().isClosed()).isTrue();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    @Test
    void closeDuringTheHandshakeFailsConnectWithClosed() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.hold("initialize"), b -> b);
        BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
            s.client().connect();
            return null;
        });
        s.server().awaitRequest("initialize");
        s.client().close();
        assertThat(connect.failure()).isInstanceOf(McpClosedException.class);
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void aTransportThatCannotOpenFailsConnect() {
        McpTransportException boom = new McpTransportException("cannot start 'srv': not found");
        Session s = sessions.unconnected(Mode.INLINE, t -> t.failOpen(boom), b -> b);
        assertThatThrownBy(s.client()::connect).isSameAs(boom);
        assertThat(s.client().isClosed()).isTrue();
        assertThatThrownBy(s.client()::ping).isInstanceOf(McpClosedException.class).hasCause(boom);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTransportLostDuringTheHandshakeFailsConnectWithItsException(Mode mode) throws Exception {
        Session s = sessions.unconnected(mode, t -> t.hold("initialize"), b -> b);
        BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
            s.client().connect();
            return null;
        });
        s.server().awaitRequest("initialize");
        McpTransportException exit = new McpTransportException("server exited with code 3");
        s.server().lose(exit);
        assertThat(connect.failure()).isSameAs(exit);
        assertThat(s.client().isClosed()).isTrue();
    }

    /**
     * A server that exits at once (before {@code initialize} is even sent, as a bad config makes it) fails connect
     * with the transport's own exception, as when it exits while initialize waits: not with the closed client it
     * left behind (the caller then had to dig the exit code out of the cause, depending on timing).
     */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "auto", "modern"})
    void aTransportLostBeforeTheHandshakeIsSentFailsConnectWithItsException(String protocolMode) {
        ProtocolMode mode = ProtocolMode.parse(protocolMode);
        McpTransportException exit = new McpTransportException("server exited with code 3");
        dev.loommcp.spi.McpTransport lostAtOnce = new dev.loommcp.spi.McpTransport() {
            @Override
            public void open(dev.loommcp.spi.TransportContext context) {
                context.sink().onClosed(exit); // the process exited before the first request
            }

            @Override
            public void send(JsonRpcMessage message, dev.loommcp.spi.SendContext context) {
                throw new McpClosedException("closed", exit);
            }

            @Override
            public String describe() {
                return "a server that exits at once";
            }

            @Override
            public void close() {
            }
        };
        McpClient client = McpClient.newBuilder(lostAtOnce).protocolMode(mode).build();
        assertThatThrownBy(client::connect).isSameAs(exit);
        assertThat(client.isClosed()).isTrue();
        client.close();
    }

    /**
     * A transport serves one client, once: a second client over a transport already given to one (from the same
     * builder or a new one) is refused at build time, naming the transport, and the first client is untouched.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSecondClientOverTheSameTransportIsRefusedAtBuildAndTheFirstKeepsWorking(Mode mode) throws Exception {
        ScriptedTransport t = ScriptedTransport.create(mode);
        McpClient.Builder b = McpClient.newBuilder(t);
        try (McpClient first = b.build()) {
            assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(t.describe()).hasMessageContaining("make a new transport");
            assertThatThrownBy(() -> McpClient.newBuilder(t).build()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(t.describe());
            first.connect();
            first.ping();
            assertThat(first.isConnected()).isTrue();
        }
    }

    /** Names that reach logs and messages are refused empty or with control characters, naming the setter. */
    @Test
    void serverNameAndClientInfoRefuseEmptyNamesAndControlCharacters() {
        McpClient.Builder b = McpClient.newBuilder(ScriptedTransport.create());
        assertThatThrownBy(() -> b.serverName("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serverName must not be empty");
        assertThatThrownBy(() -> b.serverName("a\nforged log line")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serverName must not hold control characters: it has U+000A at index 1");
        assertThatThrownBy(() -> b.clientInfo(Implementation.of("", "1.0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("clientInfo name must not be empty");
        assertThatThrownBy(() -> b.clientInfo(Implementation.of("agent", "1.0\r")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("clientInfo version");
        assertThatThrownBy(() -> b.clientInfo(new Implementation("agent", "1.0", "T\u0000", null, null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("clientInfo title");
        try (McpClient c = b.serverName("my server").clientInfo(Implementation.of("agent", "1.0")).build()) {
            assertThat(c.serverName()).isEqualTo("my server");
        }
    }

    /** A build that fails for another reason (a task support bound elsewhere) does not use the transport up. */
    @Test
    void aFailedBuildLeavesTheTransportFree() {
        ScriptedTransport t = ScriptedTransport.create();
        McpClientTasksTest.FakeSupport support = new McpClientTasksTest.FakeSupport();
        try (McpClient owner = McpClient.newBuilder(ScriptedTransport.create()).taskSupport(support).build()) {
            assertThatThrownBy(() -> McpClient.newBuilder(t).taskSupport(support).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("bound");
        }
        McpClient.newBuilder(t).build().close();
    }

    /**
     * Second line of defence: a transport whose open refuses as already opened (by another owner) is not closed by
     * the client whose connect failed, so that owner keeps it.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTransportRefusingOpenAsAlreadyOpenedIsNotClosedByTheFailedConnect(Mode mode) {
        IllegalStateException refused = new IllegalStateException("already opened; a transport is used once");
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedTransport t = ScriptedTransport.create(mode).failOpen(refused).onClose(closes::incrementAndGet);
        McpClient c = McpClient.newBuilder(t).build();
        assertThatThrownBy(c::connect).isSameAs(refused);
        assertThat(c.isClosed()).isTrue();
        c.close();
        assertThat(closes).hasValue(0);
    }

    /** Any other open failure still closes the transport (the client owns it). */
    @Test
    void aTransportFailingOpenOtherwiseIsClosed() {
        McpTransportException down = new McpTransportException("cannot start the server");
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedTransport t = ScriptedTransport.create().failOpen(down).onClose(closes::incrementAndGet);
        McpClient c = McpClient.newBuilder(t).build();
        assertThatThrownBy(c::connect).isSameAs(down);
        assertThat(closes).hasValue(1);
    }

    @Test
    void connectPassesTheHandshakeDeadlineToOpen() throws Exception {
        long before = System.nanoTime();
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b.connectTimeout(Duration.ofHours(1)));
        s.client().connect();
        long deadline = s.server().openDeadline();
        assertThat(deadline - before).isBetween(Duration.ofMinutes(59).toNanos(), Duration.ofMinutes(61).toNanos());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void callsBeforeConnectAreIllegalState(Mode mode) throws Exception {
        Session s = sessions.unconnected(mode, t -> { }, b -> b);
        McpClient c = s.client();
        assertThatThrownBy(c::ping).isInstanceOf(IllegalStateException.class).hasMessageContaining("connect()");
        assertThatThrownBy(() -> c.listTools(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::listAllTools).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> c.callTool("t", Map.of())).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> c.request("x/y", null, RequestOptions.DEFAULT))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> c.notify("notifications/x", null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> c.readResource("file:///a")).isInstanceOf(IllegalStateException.class);
        assertThat(s.server().openCount()).isZero();
        assertThat(s.server().sent()).isEmpty();
        assertThat(c.protocolVersion()).isEmpty();
        assertThat(c.serverCapabilities()).isEmpty();

        c.connect();
        c.ping();
    }

    @Test
    void callsDuringTheHandshakeAreIllegalState() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.hold("initialize"), b -> b);
        BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
            s.client().connect();
            return null;
        });
        JsonRpcMessage.Request init = s.server().awaitRequest("initialize");
        assertThatThrownBy(s.client()::ping).isInstanceOf(IllegalStateException.class);
        s.server().reply(init.id(), s.server().initializeResult());
        connect.result();
        s.client().ping();
    }

    @Test
    void connectTwiceIsIllegalState() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        assertThatThrownBy(s.client()::connect).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already");
        assertThat(s.server().requests("initialize")).hasSize(1);
        s.client().ping();
    }

    @Test
    void connectAfterCloseIsClosed() {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        s.client().close();
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpClosedException.class);
        assertThat(s.server().openCount()).isZero();
        assertThat(s.server().isClosed()).isTrue();
    }

    @Test
    void connectAfterAFailedConnectIsClosed() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.protocolVersion("1999-01-01"), b -> b);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpProtocolException.class);
        assertThatThrownBy(s.client()::connect).isInstanceOf(McpClosedException.class);
        assertThat(s.server().openCount()).isEqualTo(1);
    }
}
