package dev.loommcp;

import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.scope.Joiner;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scope tree (issue 28): a call inherits the deadline of the scope it is made in and ends with it, on the wire;
 * a server request that arrives on a call's own exchange runs in the call's scope (its handler sees
 * {@link McpContext#current()} and ends with the call); one that arrives on the connection runs in the client's.
 */
class McpClientScopeTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static void assertCancelledSent(Session s, RequestId id) {
        s.server().awaitSent("notifications/cancelled for " + id, m -> m instanceof JsonRpcMessage.Notification c
                && c.method().equals("notifications/cancelled")
                && id.value().equals(((Number) c.params().get("requestId")).longValue()));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCallInheritsTheDeadlineOfTheScopeItIsMadeIn(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.requestTimeout(Duration.ofMinutes(5)));
        long started = System.nanoTime();
        try (Scope<Object, Void> outer = Scope.open("outer", Joiner.awaitAll(),
                Deadline.after(Duration.ofMillis(300)))) {
            assertThatThrownBy(() -> s.client().callTool("slow", Map.of()))
                    .isInstanceOf(McpTimeoutException.class);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
        assertCancelledSent(s, s.server().awaitRequest("tools/call").id());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void cancellingTheScopeACallIsMadeInCancelsTheCallOnTheWire(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        try (Scope<Object, Void> outer = Scope.open("outer", Joiner.awaitAll(), Deadline.NONE)) {
            // another thread ends the scope while its owner waits in the call (the owner is not interrupted)
            Thread canceller = Thread.ofVirtual().start(() -> {
                s.server().awaitRequest("tools/call");
                outer.cancel();
            });
            assertThatThrownBy(() -> s.client().callTool("slow", Map.of()))
                    .isInstanceOf(McpCancelledException.class).hasMessageContaining("outer");
            canceller.join();
            // a call made in a scope that has ended is not sent at all
            assertThatThrownBy(() -> s.client().callTool("slow", Map.of()))
                    .isInstanceOf(McpCancelledException.class).hasMessageContaining("not sent");
        }
        assertCancelledSent(s, s.server().awaitRequest("tools/call").id());
        assertThat(s.server().requests("tools/call")).hasSize(1);
    }

    @Test
    void aServerRequestOnTheCallsOwnExchangeRunsInTheCallsScopeAndEndsWithIt() throws Exception {
        CountDownLatch handlerStarted = new CountDownLatch(1);
        CompletableFuture<Optional<McpContext>> context = new CompletableFuture<>();
        AtomicReference<Throwable> handlerEnd = new AtomicReference<>();
        Session s = sessions.connected(Mode.BLOCKING, t -> t.hold("tools/call"), b -> b.samplingHandler(r -> {
            context.complete(McpContext.current());
            handlerStarted.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                handlerEnd.set(e);
                throw e;
            }
            return CreateMessageResult.ofText("m", "late");
        }));
        BackgroundCall<Object> call = BackgroundCall.start("outer call", () -> s.client().callTool("sample",
                Map.of(), RequestOptions.ofTimeout(Duration.ofMillis(500))));
        RequestId id = s.server().awaitRequest("tools/call").id();
        s.server().deliverOn(id, new JsonRpcMessage.Request(RequestId.of("smp-1"), "sampling/createMessage",
                Map.of("messages", List.of(Map.of("role", "user", "content", Map.of("type", "text", "text", "hi"))),
                        "maxTokens", 5)));
        assertThat(handlerStarted.await(10, TimeUnit.SECONDS)).isTrue();
        Optional<McpContext> seen = context.get(10, TimeUnit.SECONDS);
        assertThat(seen).isPresent();
        assertThat(seen.get().method()).isEqualTo("tools/call");
        assertThat(seen.get().requestId()).contains(id);
        assertThat(seen.get().remaining()).isPresent();
        assertThat(seen.get().remaining().get()).isLessThanOrEqualTo(Duration.ofMillis(500));
        Await.until("the outer call ends", call::isDone);
        assertThat(call.failure()).isInstanceOf(McpTimeoutException.class);
        // the call returned only once the handler it owned had ended: interrupted when the call timed out
        assertThat(handlerEnd.get()).isInstanceOf(InterruptedException.class);
        assertCancelledSent(s, id);
    }

    @Test
    void aServerRequestOnTheConnectionRunsInTheClientsScopeWithNoRequestContext() throws Exception {
        CompletableFuture<Optional<McpContext>> context = new CompletableFuture<>();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.samplingHandler(r -> {
            context.complete(McpContext.current());
            return CreateMessageResult.ofText("m", "ok");
        }));
        s.server().deliver(new JsonRpcMessage.Request(RequestId.of("smp-2"), "sampling/createMessage",
                Map.of("messages", List.of(Map.of("role", "user", "content", Map.of("type", "text", "text", "hi"))),
                        "maxTokens", 5)));
        assertThat(context.get(10, TimeUnit.SECONDS)).isEmpty();
        assertThat(McpContext.current()).isEmpty();
    }
}
