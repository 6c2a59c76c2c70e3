package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.Await;
import dev.loommcp.testing.Listen;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client's side of a session expiry (issue 9 item 2): the transport reports {@link McpSessionExpiredException};
 * the client starts one new session per expired generation with connect()'s checks, fires the restart listener, and
 * sends the request again only where the replay policy allows.
 */
class McpClientSessionExpiryTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> tool(String name, Boolean idempotent) {
        return idempotent == null ? Map.of("name", name, "inputSchema", Map.of("type", "object"))
                : Map.of("name", name, "inputSchema", Map.of("type", "object"),
                        "annotations", Map.of("idempotentHint", idempotent));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list",
            "resources/read", "prompts/get", "completion/complete", "logging/setLevel", "resources/subscribe",
            "resources/unsubscribe"})
    void idempotentMethodsAreSentAgainInTheNewSession(String method) throws Exception {
        AtomicInteger restarts = new AtomicInteger();
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on(method, r -> Map.of()),
                b -> b.listener(new Listen().restarts(restarts::incrementAndGet)));
        s.server().expireSession();
        s.client().request(method, Map.of(), RequestOptions.DEFAULT);
        assertThat(s.server().requests(method)).hasSize(2);
        assertThat(s.server().requests("initialize")).hasSize(2);
        assertThat(s.server().notifications("notifications/initialized")).hasSize(2);
        Await.until("the restart listener", () -> restarts.get() == 1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void otherRequestsFailTypedAndTheSessionIsRenewedAllTheSame(Mode mode) throws Exception {
        AtomicInteger restarts = new AtomicInteger();
        Session s = sessions.connected(mode, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(tool("plain", null), tool("unsure", false))))
                .on("tools/call", r -> Map.of("content", List.of()))
                .on("x/custom", r -> Map.of()), b -> b.listener(new Listen().restarts(restarts::incrementAndGet)));
        s.client().listAllTools();

        s.server().expireSession();
        assertThatThrownBy(() -> s.client().callTool("plain", Map.of()))
                .isInstanceOf(McpSessionExpiredException.class);
        assertThat(s.server().requests("tools/call")).hasSize(1);
        assertThat(s.server().requests("initialize")).hasSize(2);

        s.server().expireSession();
        assertThatThrownBy(() -> s.client().callTool("unsure", Map.of()))
                .isInstanceOf(McpSessionExpiredException.class);
        s.server().expireSession();
        assertThatThrownBy(() -> s.client().request("x/custom", null, RequestOptions.DEFAULT))
                .isInstanceOf(McpSessionExpiredException.class);
        assertThat(s.server().requests("x/custom")).hasSize(1);
        assertThat(s.server().requests("tools/call")).hasSize(2);

        s.client().callTool("plain", Map.of()); // the next call runs in the new session
        assertThat(s.server().requests("initialize")).hasSize(4);
        Await.until("one restart per renewal", () -> restarts.get() == 3);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aToolDeclaredIdempotentIsSentAgainOnce(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(tool("idem", true))))
                .on("tools/call", r -> Map.of("content", List.of())), b -> b);
        s.client().listAllTools();
        s.server().expireSession();
        s.client().callTool("idem", Map.of());
        assertThat(s.server().requests("tools/call")).hasSize(2);
        assertThat(s.server().expiredRequests()).isEqualTo(1);
    }

    /** A call's own resendOnSessionExpiry overrides the policy both ways. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void theCallsOwnChoiceOverridesThePolicyBothWays(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(tool("idem", true), tool("plain", null))))
                .on("tools/call", r -> Map.of("content", List.of()))
                .on("x/custom", r -> Map.of("ok", true)), b -> b);
        s.client().listAllTools();

        s.server().expireSession();
        assertThat(s.client().request("x/custom", null,
                RequestOptions.newBuilder().resendOnSessionExpiry(true).build())).containsEntry("ok", true);
        assertThat(s.server().requests("x/custom")).hasSize(2);

        s.server().expireSession();
        s.client().callTool("plain", Map.of(), RequestOptions.newBuilder().resendOnSessionExpiry(true).build());
        assertThat(s.server().requests("tools/call")).hasSize(2);

        s.server().expireSession();
        assertThatThrownBy(() -> s.client().callTool("idem", Map.of(),
                RequestOptions.newBuilder().resendOnSessionExpiry(false).build()))
                .isInstanceOf(McpSessionExpiredException.class);
        assertThat(s.server().requests("tools/call")).hasSize(3);

        s.server().expireSession();
        assertThatThrownBy(() -> s.client().listTools(null,
                RequestOptions.newBuilder().resendOnSessionExpiry(false).build()))
                .isInstanceOf(McpSessionExpiredException.class);
        assertThat(s.server().requests("initialize")).hasSize(5);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void concurrentExpiriesShareOneInitialize(Mode mode) throws Exception {
        int n = 4;
        CountDownLatch allRefused = new CountDownLatch(1);
        Session s = sessions.connected(mode, t -> { }, b -> b);
        // the renewal's initialize waits until every call was refused in the old session
        s.server().on("initialize", r -> {
            allRefused.await(10, TimeUnit.SECONDS);
            return s.server().initializeResult();
        });
        s.server().expireSession();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> callers = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            callers.add(Thread.ofVirtual().start(() -> {
                try {
                    s.client().ping();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }));
        }
        // each ping is refused in the old session, or waits for the renewal before it is sent (issue 26 item 23):
        // every caller is parked, and the renewal's initialize holds until then
        Await.until("every ping refused or waiting for the new session", () -> s.server().expiredRequests() >= 1
                && callers.stream().allMatch(t -> t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING));
        allRefused.countDown();
        for (Thread t : callers) {
            assertThat(t.join(Duration.ofSeconds(20))).isTrue();
        }
        assertThat(failure.get()).isNull();
        assertThat(s.server().requests("initialize")).as("connect, then one renewal for all").hasSize(2);
        assertThat(s.server().requests("ping")).as("each refused ping once more, the others once")
                .hasSize(n + s.server().expiredRequests());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theRenewalChecksTheVersionLikeConnectAndTheNextCallTriesAgain(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> { }, b -> b);
        s.server().protocolVersion("1999-01-01");
        s.server().expireSession();
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'1999-01-01'").hasMessageContaining("supports")
                .satisfies(e -> assertThat(e.getSuppressed()).hasAtLeastOneElementOfType(
                        McpSessionExpiredException.class));
        assertThat(s.server().notifications("notifications/initialized")).hasSize(1);
        assertThat(s.client().isConnected()).isTrue();

        s.server().protocolVersion("2025-06-18");
        s.server().expireSession();
        s.client().ping();
        assertThat(s.server().requests("initialize")).hasSize(3);
        assertThat(s.server().handshakeVersion()).contains("2025-06-18");
        assertThat(s.client().initializeResult().orElseThrow().protocolVersion()).isEqualTo("2025-06-18");
    }
}
