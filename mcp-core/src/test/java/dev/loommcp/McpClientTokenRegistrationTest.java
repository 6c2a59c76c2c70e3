package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.Await;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Calls leave nothing registered on the caller's {@link CancellationToken}, however they end (issue 8 item 4): a
 * long-lived token shared by many calls must not grow.
 */
class McpClientTokenRegistrationTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static void assertFailsWith(CompletableFuture<?> f, Class<? extends Throwable> type) {
        assertThatThrownBy(() -> f.get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(type);
    }

    @Test
    void tenThousandAsyncCallsOnAClosedClientLeaveNoRegistration() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        s.client().close();
        CancellationToken token = CancellationToken.create();
        RequestOptions options = RequestOptions.ofToken(token);
        List<CompletableFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            futures.add(s.client().callToolAsync("t", Map.of(), options));
            futures.add(s.client().requestAsync("x/y", null, options));
        }
        for (CompletableFuture<?> f : futures) {
            assertFailsWith(f, McpClosedException.class);
        }
        assertThat(token.registrationCount()).isZero();
    }

    @Test
    void asyncCallsOnAnUnconnectedClientLeaveNoRegistration() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        CancellationToken token = CancellationToken.create();
        assertFailsWith(s.client().callToolAsync("t", Map.of(), RequestOptions.ofToken(token)),
                IllegalStateException.class);
        assertThat(token.registrationCount()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void completedFailedAndCancelledCallsLeaveNoRegistration(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t
                .on("tools/call", r -> Map.of("content", List.of()))
                .hold("x/slow"), b -> b);
        CancellationToken token = CancellationToken.create();
        RequestOptions options = RequestOptions.ofToken(token);

        s.client().callToolAsync("t", Map.of(), options).get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
        s.client().callTool("t", Map.of(), options);
        assertFailsWith(s.client().requestAsync("x/unknown", null, options), McpRpcException.class);
        assertThatThrownBy(() -> s.client().request("x/unknown", null, options)).isInstanceOf(McpRpcException.class);
        CompletableFuture<Map<String, Object>> slow = s.client().requestAsync("x/slow", null, options);
        s.server().awaitRequest("x/slow");
        slow.cancel(true);

        Await.until("every registration on the token removed", () -> token.registrationCount() == 0);
        assertThat(token.isCancelled()).isFalse();
    }
}
