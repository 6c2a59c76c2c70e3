package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Implementation;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;

/**
 * The modern era's request path against the scripted server (MODERN-ERA.md C.1): the {@code _meta} envelope on every
 * request, exact per-request capabilities, routing on the send context, the {@code -32022} corrective retry, typed
 * {@code -32021}, {@code resultType}, methods removed in the era, cancellation, the era accessors and the caching
 * hints. Each test checks through {@link Sessions} that nothing is left pending or running.
 */
class McpClientModernEraTest {

    static final String V = ProtocolMode.MODERN_PROTOCOL_VERSION;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** A modern server: {@code server/discover} and the feature methods, every result {@code complete}. */
    static void modern(ScriptedTransport t) {
        t.on("server/discover", r -> discoverResult());
        t.on("tools/list", r -> complete(Map.of("tools", List.of(Map.of("name", "echo", "inputSchema",
                Map.of("type", "object"))))));
        t.on("tools/call", r -> complete(Map.of("content", List.of(Map.of("type", "text", "text", "hi")))));
        t.on("prompts/get", r -> complete(Map.of("messages", List.of())));
        t.on("resources/read", r -> complete(Map.of("contents", List.of())));
        t.on("initialize", r -> new JsonRpcError(-32022, "Unsupported protocol version",
                Map.of("supported", List.of(V), "requested", "2025-11-25")));
    }

    static Map<String, Object> discoverResult() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("supportedVersions", List.of(V));
        d.put("capabilities", Map.of("tools", Map.of("listChanged", true)));
        d.put("instructions", "use echo");
        d.put("resultType", "complete");
        d.put("ttlMs", 0);
        d.put("cacheScope", "private");
        d.put("serverInfo", Map.of("name", "top-level", "version", "0"));
        d.put("_meta", Map.of("io.modelcontextprotocol/serverInfo", Map.of("name", "modern-srv", "version", "1.2")));
        return d;
    }

    static Map<String, Object> complete(Map<String, Object> result) {
        Map<String, Object> r = new LinkedHashMap<>(result);
        r.put("resultType", "complete");
        return r;
    }

    Session modernClient(Mode mode, java.util.function.Consumer<ScriptedTransport> extra,
                         java.util.function.UnaryOperator<McpClient.Builder> config) throws InterruptedException {
        return sessions.connected(mode, t -> {
            modern(t);
            extra.accept(t);
        }, b -> config.apply(b.protocolMode(ProtocolMode.MODERN)));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> metaOf(JsonRpcMessage.Request r) {
        return (Map<String, Object>) r.params().get("_meta");
    }

    // ------------------------------------------------------------------------------------------------ envelope

    @ParameterizedTest
    @EnumSource(Mode.class)
    void everyRequestIncludingDiscoverCarriesTheEnvelopeAndRouting(Mode mode) throws Exception {
        Session s = modernClient(mode, t -> { }, b -> b.clientInfo(Implementation.of("agent", "3.1")));
        McpClient c = s.client();
        c.setToolMeta(Map.of("tenant", "a"));
        c.callTool("echo", Map.of("m", "x"), RequestOptions.newBuilder()
                .putMeta("io.modelcontextprotocol/protocolVersion", "1999-01-01").putMeta("trace", "t1").build());
        c.listTools(null);
        c.readResource("notes://all");
        c.getPrompt("p", Map.of());

        List<JsonRpcMessage.Request> requests = s.server().sent().stream()
                .filter(m -> m instanceof JsonRpcMessage.Request).map(m -> (JsonRpcMessage.Request) m).toList();
        // on an exchange-per-request (HTTP-like) transport a tool no listing described is looked up first, for its
        // x-mcp-header parameters
        List<String> expected = mode == Mode.BLOCKING
                ? List.of("server/discover", "tools/list", "tools/call", "tools/list", "resources/read", "prompts/get")
                : List.of("server/discover", "tools/call", "tools/list", "resources/read", "prompts/get");
        assertThat(requests).extracting(JsonRpcMessage.Request::method).containsExactlyElementsOf(expected);
        for (JsonRpcMessage.Request r : requests) {
            assertThat(metaOf(r)).as(r.method())
                    .containsEntry("io.modelcontextprotocol/protocolVersion", V)
                    .containsEntry("io.modelcontextprotocol/clientCapabilities", Map.of())
                    .containsEntry("io.modelcontextprotocol/clientInfo", Map.of("name", "agent", "version", "3.1"));
            RequestRouting routing = s.server().recordOf(m -> m == r || m.equals(r)).routing().orElseThrow();
            assertThat(routing.protocolVersion()).isEqualTo(V);
            assertThat(routing.method()).isEqualTo(r.method());
        }
        // the caller's _meta keys stay, but never replace the three
        assertThat(metaOf(s.server().awaitRequest("tools/call"))).containsEntry("tenant", "a")
                .containsEntry("trace", "t1");
        assertThat(routingOf(s, "tools/call").name()).isEqualTo("echo");
        assertThat(routingOf(s, "resources/read").name()).isEqualTo("notes://all");
        assertThat(routingOf(s, "prompts/get").name()).isEqualTo("p");
        assertThat(routingOf(s, "tools/list").name()).isNull();
        assertThat(routingOf(s, "server/discover").name()).isNull();
        // a new id per request
        assertThat(requests).extracting(JsonRpcMessage.Request::id).doesNotHaveDuplicates();
        // no handshake in the modern era
        assertThat(s.server().requests("initialize")).isEmpty();
        assertThat(s.server().notifications("notifications/initialized")).isEmpty();
        assertThat(s.server().handshakeVersion()).isEmpty();
    }

    /** A tool with one x-mcp-header parameter, as an HTTP-like modern server lists it. */
    static void routedTool(ScriptedTransport t, java.util.concurrent.atomic.AtomicInteger listings) {
        t.on("tools/list", r -> {
            listings.incrementAndGet();
            return complete(Map.of("tools", List.of(Map.of("name", "route", "inputSchema", Map.of("type", "object",
                    "properties", Map.of("region", Map.of("type", "string", "x-mcp-header", "Region")))))));
        });
    }

    @Test
    void aToolCalledBeforeAnyListingIsLookedUpSoItsParameterHeadersGoOut() throws Exception {
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        Session s = modernClient(Mode.BLOCKING, t -> routedTool(t, listings), b -> b);
        s.client().callTool("route", Map.of("region", "eu"));
        s.client().callTool("route", Map.of("region", "us"));
        assertThat(listings).hasValue(1); // once known, no more listings
        List<RequestRouting> calls = s.server().sendRecords().stream()
                .filter(r -> r.message() instanceof JsonRpcMessage.Request q && q.method().equals("tools/call"))
                .map(r -> r.routing().orElseThrow()).toList();
        assertThat(calls).extracting(RequestRouting::parameterHeaders)
                .containsExactly(Map.of("Region", "eu"), Map.of("Region", "us"));
    }

    @Test
    void aHeaderMismatchRelistsTheToolsAndRetriesOnce() throws Exception {
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Session s = modernClient(Mode.BLOCKING, t -> {
            routedTool(t, listings);
            t.on("tools/call", r -> calls.incrementAndGet() == 1
                    ? new JsonRpcError(-32020, "header mismatch", null)
                    : complete(Map.of("content", List.of(Map.of("type", "text", "text", "ok")))));
        }, b -> b);
        assertThat(s.client().callTool("route", Map.of("region", "eu")).content()).hasSize(1);
        assertThat(listings).hasValue(2);
        assertThat(calls).hasValue(2);
        // a second mismatch is the caller's: no loop
        calls.set(5);
        s.server().on("tools/call", r -> new JsonRpcError(-32020, "header mismatch", null));
        assertThatThrownBy(() -> s.client().callTool("route", Map.of("region", "eu")))
                .isInstanceOf(McpRpcException.class).hasMessageContaining("-32020");
        assertThat(listings).hasValue(3);
    }

    static RequestRouting routingOf(Session s, String method) {
        return s.server().recordOf(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                .routing().orElseThrow();
    }

    @Test
    void capabilitiesAreExactlyWhatTheHandlersServe() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> { }, b -> b
                .elicitationHandler(req -> dev.loommcp.schema.ElicitResult.decline(), false)
                .samplingHandler(req -> { throw new UnsupportedOperationException(); })
                .rootsHandler(List::of));
        s.client().listTools(null);
        for (JsonRpcMessage.Request r : List.of(s.server().awaitRequest("server/discover"),
                s.server().awaitRequest("tools/list"))) {
            assertThat(metaOf(r)).containsEntry("io.modelcontextprotocol/clientCapabilities",
                    Map.of("elicitation", Map.of("form", Map.of()), "sampling", Map.of(), "roots", Map.of()));
        }
        Session url = modernClient(Mode.INLINE, t -> { }, b -> b
                .elicitationHandler(req -> dev.loommcp.schema.ElicitResult.decline()));
        assertThat(metaOf(url.server().awaitRequest("server/discover")))
                .containsEntry("io.modelcontextprotocol/clientCapabilities",
                        Map.of("elicitation", Map.of("form", Map.of(), "url", Map.of())));
    }

    // ------------------------------------------------------------------------------------------------ errors

    @ParameterizedTest
    @EnumSource(Mode.class)
    void unsupportedVersionIsRetriedOnceWithANewIdEvenToTheSameVersion(Mode mode) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Session s = modernClient(mode, t -> t.on("tools/list", r -> calls.incrementAndGet() == 1
                ? new JsonRpcError(-32022, "Unsupported protocol version", Map.of("supported", List.of(V),
                        "requested", V))
                : complete(Map.of("tools", List.of()))), b -> b);
        assertThat(s.client().listTools(null).tools()).isEmpty();
        List<JsonRpcMessage.Request> lists = s.server().requests("tools/list");
        assertThat(lists).hasSize(2);
        assertThat(lists.get(0).id()).isNotEqualTo(lists.get(1).id());
        assertThat(metaOf(lists.get(1))).containsEntry("io.modelcontextprotocol/protocolVersion", V);
        assertThat(s.client().protocolVersion().orElseThrow()).isEqualTo(V);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSecondUnsupportedVersionIsTyped(Mode mode) throws Exception {
        Session s = modernClient(mode, t -> t.on("tools/list", r -> new JsonRpcError(-32022, "nope",
                Map.of("supported", List.of(V), "requested", V))), b -> b);
        assertThatThrownBy(() -> s.client().listTools(null))
                .isInstanceOfSatisfying(McpRpcException.class,
                        e -> assertThat(e.supportedVersions()).containsExactly(V));
        assertThat(s.server().requests("tools/list")).hasSize(2);
        assertThat(s.client().isConnected()).isTrue();
    }

    @Test
    void unsupportedVersionWithoutAMutualVersionIsNotRetried() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/list", r -> new JsonRpcError(-32022, "nope",
                Map.of("supported", List.of("2099-01-01"), "requested", V))), b -> b);
        assertThatThrownBy(() -> s.client().listTools(null))
                .isInstanceOfSatisfying(McpRpcException.class,
                        e -> assertThat(e.supportedVersions()).containsExactly("2099-01-01"));
        assertThat(s.server().requests("tools/list")).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void missingCapabilityIsTypedAndNotRetried(Mode mode) throws Exception {
        Session s = modernClient(mode, t -> t.on("tools/call", r -> new JsonRpcError(-32021,
                "Missing required client capability", Map.of("requiredCapabilities",
                        Map.of("elicitation", Map.of("form", Map.of()))))), b -> b);
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of()))
                .isInstanceOfSatisfying(McpRpcException.class, e -> {
                    assertThat(e.requiredCapabilities()).isEqualTo(Map.of("elicitation", Map.of("form", Map.of())));
                    assertThat(e.code()).isEqualTo(-32021);
                });
        assertThat(s.server().requests("tools/call")).hasSize(1);
    }

    @Test
    void anAbsentResultTypeIsComplete() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("content",
                List.of(Map.of("type", "text", "text", "plain")))), b -> b);
        assertThat(s.client().callTool("echo", Map.of()).content()).hasSize(1);
        assertThat(s.server().requests("tools/call")).hasSize(1);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"task", "streaming", "input_required"})
    void anUnknownOrMisplacedResultTypeIsAProtocolError(String type) throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools", List.of(),
                "resultType", type, "inputRequests", Map.of())), b -> b);
        assertThatThrownBy(() -> s.client().listTools(null)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("tools/list").hasMessageContaining(type);
        assertThat(s.server().requests("tools/list")).hasSize(1);
    }

    @Test
    void aTaskResultOnToolsCallIsAProtocolError() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("resultType", "task",
                "taskId", "t1", "status", "working")), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'task'");
    }

    @Test
    void inputRequiredWithoutAHandlerFailsTyped() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("resultType", "input_required",
                "inputRequests", Map.of("confirm", Map.of("method", "elicitation/create", "params",
                        Map.of("message", "ok?", "requestedSchema", Map.of("type", "object", "properties",
                                Map.of())))))), b -> b);
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of())).isInstanceOf(
                McpInputRequiredException.class);
    }

    @Test
    void closingTheClientWhileAnInputHandlerRunsFailsTheCallAsClosedNotWithANullPointer() throws Exception {
        java.util.concurrent.CountDownLatch handling = new java.util.concurrent.CountDownLatch(1);
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("resultType", "input_required",
                "inputRequests", Map.of("confirm", Map.of("method", "elicitation/create", "params",
                        Map.of("message", "ok?", "requestedSchema", Map.of("type", "object", "properties",
                                Map.of())))))), b -> b.elicitationHandler(r -> {
                                    handling.countDown();
                                    Thread.sleep(60_000);
                                    return dev.loommcp.schema.ElicitResult.decline();
                                }));
        Thread closer = Thread.ofVirtual().start(() -> {
            try {
                handling.await();
            } catch (InterruptedException e) {
                return;
            }
            s.client().close();
        });
        // no token, no timeout: only the close ends the call (it threw a NullPointerException reading a token)
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of()))
                .isInstanceOf(McpClosedException.class).hasMessageContaining("closed");
        closer.join();
    }

    // ------------------------------------------------------------------------------------------------ removed

    @Test
    void methodsRemovedInTheModernEraAreRefusedWithoutWireTraffic() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> { }, b -> b);
        McpClient c = s.client();
        int before = s.server().sent().size();
        List<ThrowingCall> calls = List.of(c::ping, () -> c.setLoggingLevel(dev.loommcp.schema.LoggingLevel.INFO),
                () -> c.subscribe("notes://all"), () -> c.unsubscribe("notes://all"), c::notifyRootsListChanged,
                () -> c.request("initialize", Map.of(), RequestOptions.DEFAULT),
                () -> c.request("ping", null, RequestOptions.DEFAULT),
                () -> c.notify("notifications/initialized", null));
        List<String> methods = List.of("ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
                "notifications/roots/list_changed", "initialize", "ping", "notifications/initialized");
        for (int i = 0; i < calls.size(); i++) {
            String method = methods.get(i);
            assertThatThrownBy(calls.get(i)::run).as(method)
                    .isInstanceOfSatisfying(McpUnsupportedInEraException.class, e -> {
                        assertThat(e.method()).isEqualTo(method);
                        assertThat(e.era()).isEqualTo(Era.MODERN);
                    })
                    .hasMessageContaining("modern");
        }
        assertThatThrownBy(() -> c.subscribe("x")).hasMessageContaining("listen");
        assertThat(s.server().sent()).hasSize(before);
        assertThat(c.isConnected()).isTrue();
        c.listTools(null); // still usable
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------------------------------------ accessors

    @Test
    void accessorsReportTheModernTruth() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("tools/list", r -> {
            Map<String, Object> m = complete(Map.of("tools", List.of()));
            m.put("_meta", Map.of("io.modelcontextprotocol/serverInfo", Map.of("name", "modern-srv", "version",
                    "1.3")));
            return m;
        }), b -> b);
        McpClient c = s.client();
        assertThat(c.era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(c.protocolVersion().orElseThrow()).isEqualTo(V);
        assertThat(c.initializeResult()).isEmpty();
        assertThat(c.serverInfo().orElseThrow()).isEqualTo(Implementation.of("modern-srv", "1.2")); // _meta preferred
        assertThat(c.instructions().orElseThrow()).isEqualTo("use echo");
        assertThat(c.serverCapabilities().orElseThrow().tools()).isNotNull();
        assertThat(c.discoverResult().orElseThrow().supportedVersions()).containsExactly(V);
        assertThat(c.discoverResult().orElseThrow().serverInfo().name()).isEqualTo("modern-srv");
        assertThat(c.discoverResult().orElseThrow().cacheScope()).isEqualTo("private");
        c.listTools(null);
        assertThat(c.serverInfo().orElseThrow()).isEqualTo(Implementation.of("modern-srv", "1.3")); // the latest result's
    }

    @Test
    void aTopLevelServerInfoIsAcceptedWithoutMeta() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("server/discover", r -> {
            Map<String, Object> d = discoverResult();
            d.remove("_meta");
            return d;
        }), b -> b);
        assertThat(s.client().serverInfo().orElseThrow()).isEqualTo(Implementation.of("top-level", "0"));
    }

    @Test
    void legacyAccessorsStillReadInitialize() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        assertThat(s.client().era().orElseThrow()).isEqualTo(Era.LEGACY);
        assertThat(s.client().protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
        assertThat(s.client().discoverResult()).isEmpty();
        assertThat(s.client().serverInfo().orElseThrow().name()).isEqualTo("scripted-server");
        assertThat(s.server().sent().get(0)).isInstanceOfSatisfying(JsonRpcMessage.Request.class,
                r -> assertThat(r.method()).isEqualTo("initialize"));
        assertThat(s.server().sendRecords()).allSatisfy(r -> assertThat(r.routing()).isEmpty());
    }

    @Test
    void aPinnedLegacyVersionOffersAndAcceptsOnlyIt() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.protocolVersion("2025-06-18"),
                b -> b.protocolMode(ProtocolMode.pinned("2025-06-18")));
        assertThat(s.server().awaitRequest("initialize").params()).containsEntry("protocolVersion", "2025-06-18");
        assertThat(s.client().protocolVersion().orElseThrow()).isEqualTo("2025-06-18");

        Session other = sessions.unconnected(Mode.INLINE, t -> { },
                b -> b.protocolMode(ProtocolMode.pinned("2025-06-18")));
        assertThatThrownBy(() -> other.client().connect()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("pinned to 2025-06-18");
    }

    // ------------------------------------------------------------------------------------------------ MODERN mode

    @ParameterizedTest
    @EnumSource(Mode.class)
    void modernModeAgainstALegacyServerFailsNamingTheAnswer(Mode mode) {
        Session s = sessions.unconnected(mode, t -> { }, b -> b.protocolMode(ProtocolMode.MODERN));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("does not speak the modern protocol era")
                .hasMessageContaining("-32601");
        assertThat(s.server().requests("initialize")).isEmpty();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void modernModeRefusesAnInvalidDiscoverResultListingOnlyVersionsItDoesNotSpeak() {
        // not a valid DiscoverResult (no capabilities, no serverInfo), yet it does name its versions: none is ours
        Session s = sessions.unconnected(Mode.INLINE,
                t -> t.on("server/discover", r -> Map.of("supportedVersions", List.of("2099-01-01"))),
                b -> b.protocolMode(ProtocolMode.MODERN));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("does not speak the modern protocol era")
                .hasMessageContaining("[2099-01-01]");
        assertThat(s.client().discoverResult()).isEmpty();
        assertThat(s.server().requests("tools/list")).isEmpty();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void modernModeTakesADiscoverSuccessThatDoesNotValidateAsTheServers() throws Exception {
        // as the conformance suite's mocks answer any method: {"resultType":"complete","ttlMs":0,...}
        Session s = sessions.connected(Mode.BLOCKING, t -> {
            modern(t);
            t.on("server/discover", r -> Map.of("resultType", "complete", "ttlMs", 0, "cacheScope", "private"));
        }, b -> b.protocolMode(ProtocolMode.pinned(V)));
        assertThat(s.client().era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(s.client().discoverResult().orElseThrow().supportedVersions()).containsExactly(V);
        assertThat(s.client().serverCapabilities()).isPresent();
        s.client().callTool("echo", Map.of());
    }

    @Test
    void modernModeRefusesADiscoverResultSharingNoVersion() {
        Session s = sessions.unconnected(Mode.INLINE, t -> t.on("server/discover", r -> Map.of("supportedVersions",
                List.of("2099-01-01"), "capabilities", Map.of())), b -> b.protocolMode(ProtocolMode.MODERN));
        assertThatThrownBy(() -> s.client().connect()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("2099-01-01");
    }

    // ------------------------------------------------------------------------------------------------ cancel

    @Test
    void aTimedOutModernCallOnAStdioLikeTransportSendsCancelledWithRouting() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.ofTimeout(
                Duration.ofMillis(100)))).isInstanceOf(McpTimeoutException.class);
        JsonRpcMessage.Notification n = s.server().awaitNotification("notifications/cancelled");
        RequestId id = s.server().awaitRequest("tools/call").id();
        assertThat(((Number) n.params().get("requestId")).longValue()).isEqualTo(((RequestId.NumberId) id).number());
        assertThat(s.server().recordOf(m -> m == n || m.equals(n)).routing()).hasValueSatisfying(
                r -> assertThat(r.method()).isEqualTo("notifications/cancelled"));
    }

    @Test
    void aTimedOutModernCallOnAnHttpLikeTransportAbortsTheExchangeOnly() throws Exception {
        Session s = modernClient(Mode.BLOCKING, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.ofTimeout(
                Duration.ofMillis(100)))).isInstanceOf(McpTimeoutException.class);
        RequestId id = s.server().awaitRequest("tools/call").id();
        s.server().awaitSendFinished(id);
        assertThat(s.server().cancelHookRan(id)).isTrue();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        assertThat(s.server().openExchanges()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCancelledTokenEndsAModernCallTheTransportsWay(Mode mode) throws Exception {
        Session s = modernClient(mode, t -> t.hold("tools/call"), b -> b);
        CancellationToken token = CancellationToken.create();
        var future = s.client().callToolAsync("slow", Map.of(), RequestOptions.ofToken(token));
        RequestId id = s.server().awaitRequest("tools/call").id();
        token.cancel("user closed it");
        assertThatThrownBy(future::join).hasCauseInstanceOf(McpCancelledException.class);
        if (mode == Mode.INLINE) {
            JsonRpcMessage.Notification n = s.server().awaitNotification("notifications/cancelled");
            assertThat(n.params()).containsEntry("reason", "user closed it");
        } else {
            s.server().awaitSendFinished(id);
            assertThat(s.server().cancelHookRan(id)).isTrue();
            assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        }
    }

    // ------------------------------------------------------------------------------------------------ caching

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFreshListingIsAnsweredFromTheCacheUntilListChanged(Mode mode) throws Exception {
        Session s = modernClient(mode, t -> t.on("tools/list", r -> Map.of("tools", List.of(Map.of("name", "echo",
                "inputSchema", Map.of("type", "object"))), "resultType", "complete", "ttlMs", 60_000,
                "cacheScope", "private")), b -> b);
        McpClient c = s.client();
        assertThat(c.listAllTools()).hasSize(1);
        assertThat(c.tools()).hasSize(1);
        assertThat(c.listAllTools()).hasSize(1);
        assertThat(s.server().requests("tools/list")).hasSize(1);

        s.server().deliverNow(new JsonRpcMessage.Notification("notifications/tools/list_changed", Map.of()));
        assertThat(c.listAllTools()).hasSize(1);
        assertThat(s.server().requests("tools/list")).hasSize(2);
        // a single page request is never answered from the cache
        c.listTools(null);
        assertThat(s.server().requests("tools/list")).hasSize(3);
    }

    @Test
    void aListingWithoutTtlIsNeverCached() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("prompts/list", r -> Map.of("prompts", List.of(),
                "resultType", "complete", "ttlMs", 0, "cacheScope", "public")), b -> b);
        s.client().listAllPrompts();
        s.client().listAllPrompts();
        assertThat(s.server().requests("prompts/list")).hasSize(2);
    }

    @Test
    void aPagedListingIsCachedOnlyWhenEveryPageAllowsIt() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("resources/list", r -> r.params() != null
                && r.params().containsKey("cursor")
                ? Map.of("resources", List.of(Map.of("uri", "b://2", "name", "b")), "resultType", "complete",
                        "ttlMs", 0)
                : Map.of("resources", List.of(Map.of("uri", "a://1", "name", "a")), "resultType", "complete",
                        "ttlMs", 60_000, "nextCursor", "p2")), b -> b);
        assertThat(s.client().listAllResources()).hasSize(2);
        assertThat(s.client().listAllResources()).hasSize(2);
        assertThat(s.server().requests("resources/list")).hasSize(4);
    }

    @Test
    void aFreshReadIsCachedUntilTheResourceIsUpdated() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("resources/read", r -> Map.of("contents",
                List.of(Map.of("uri", "notes://all", "text", "n")), "resultType", "complete", "ttlMs", 60_000)),
                b -> b);
        McpClient c = s.client();
        c.readResource("notes://all");
        c.readResource("notes://all");
        assertThat(s.server().requests("resources/read")).hasSize(1);
        s.server().deliverNow(new JsonRpcMessage.Notification("notifications/resources/updated",
                Map.of("uri", "notes://other")));
        c.readResource("notes://all");
        assertThat(s.server().requests("resources/read")).hasSize(1);
        s.server().deliverNow(new JsonRpcMessage.Notification("notifications/resources/updated",
                Map.of("uri", "notes://all")));
        assertThat(c.readResource("notes://all").contents()).hasSize(1);
        assertThat(s.server().requests("resources/read")).hasSize(2);
    }

    @Test
    void anInputRequiredAnswerIsNeverCached() throws Exception {
        Session s = modernClient(Mode.INLINE, t -> t.on("resources/read", r -> Map.of("resultType",
                "input_required", "requestState", "s1", "ttlMs", 60_000)), b -> b);
        assertThatThrownBy(() -> s.client().readResource("notes://all")).isInstanceOf(McpException.class);
        assertThatThrownBy(() -> s.client().readResource("notes://all")).isInstanceOf(McpException.class);
        assertThat(s.server().requests("resources/read").stream()
                .filter(r -> !r.params().containsKey("requestState")).count()).isEqualTo(2);
    }

    @Test
    void theLegacyEraNeverCaches() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools", List.of(),
                "ttlMs", 60_000)), b -> b);
        s.client().listAllTools();
        s.client().listAllTools();
        assertThat(s.server().requests("tools/list")).hasSize(2);
    }
}
