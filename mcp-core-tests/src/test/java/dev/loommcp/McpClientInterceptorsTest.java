package dev.loommcp;

import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.intercept.McpConnection;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;
import dev.loommcp.intercept.OutgoingRequest;
import dev.loommcp.intercept.ServerRequest;
import dev.loommcp.intercept.ServerRequestInterceptor;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.spi.TransportInfo;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The interceptor chain (issue 30 section 1) in both eras against the scripted server: order, veto, rewrite of params
 * and {@code _meta}, answer without sending, a failing interceptor, the request's scope, deadline and cancellation
 * inside an interceptor, what the chain tells of the connection, and the interceptors of server requests (2025 server
 * requests, 2026 {@code inputRequests}). The {@link Sessions} extension checks no thread is left behind.
 */
class McpClientInterceptorsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> toolResult(String text) {
        return Map.of("content", List.of(Map.of("type", "text", "text", text)));
    }

    /** A connected client of {@code era}: the server answers {@code tools/call} with the tool's name as text. */
    private Session connect(Era era, Consumer<ScriptedTransport> script, UnaryOperator<McpClient.Builder> config)
            throws InterruptedException {
        return sessions.connected(Mode.INLINE, t -> {
            if (era == Era.MODERN) {
                McpClientModernEraTest.modern(t);
            }
            t.on("tools/call", r -> {
                Map<String, Object> result = new LinkedHashMap<>(toolResult((String) r.params().get("name")));
                if (era == Era.MODERN) {
                    result.put("resultType", "complete");
                }
                return result;
            });
            t.on("resources/read", r -> era == Era.MODERN ? McpClientModernEraTest.complete(Map.of("contents",
                    List.of())) : Map.of("contents", List.of()));
            t.on("tools/list", r -> {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("tools", List.of(Map.of("name", "echo", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "wipe", "inputSchema", Map.of("type", "object"),
                                "annotations", Map.of("destructiveHint", true))));
                if (era == Era.MODERN) {
                    result.put("resultType", "complete");
                }
                return result;
            });
            script.accept(t);
        }, b -> config.apply(b.protocolMode(era == Era.MODERN ? ProtocolMode.MODERN : ProtocolMode.LEGACY)));
    }

    private static McpInterceptor recording(String name, List<String> log) {
        return chain -> {
            log.add(name + ">");
            try {
                return chain.proceed(chain.request());
            } finally {
                log.add("<" + name);
            }
        };
    }

    // ------------------------------------------------------------------------------------------------ order

    @ParameterizedTest
    @EnumSource(Era.class)
    void interceptorsRunInTheOrderAddedTheFirstOutermostAndSeeEveryCallButTheHandshake(Era era) throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        List<String> methods = new CopyOnWriteArrayList<>();
        Session s = connect(era, t -> { }, b -> b.addInterceptor(recording("a", log))
                .addInterceptor(chain -> {
                    methods.add(chain.request().method());
                    return chain.proceed(chain.request());
                })
                .addInterceptor(recording("b", log)).addInterceptor(recording("c", log)));
        assertThat(methods).isEmpty(); // initialize, notifications/initialized, server/discover: not intercepted
        assertThat(s.client().callTool("echo", Map.of()).text()).isEqualTo("echo");
        assertThat(log).containsExactly("a>", "b>", "c>", "<c", "<b", "<a");
        s.client().listTools(null, RequestOptions.DEFAULT);
        s.client().request("resources/read", Map.of("uri", "file:///x"), RequestOptions.DEFAULT);
        assertThat(methods).containsExactly("tools/call", "tools/list", "resources/read");
    }

    // ------------------------------------------------------------------------------------------------ veto

    @ParameterizedTest
    @EnumSource(Era.class)
    void aVetoReachesTheCallerAsItIsNothingIsSentAndTheClientStaysUsable(Era era) throws Exception {
        Session s = connect(era, t -> { }, b -> b.addInterceptor(chain -> {
            if (chain.request().toolName().orElse("").equals("wipe")) {
                throw new McpVetoedException(chain.request().method(), "tool 'wipe' is not allowed");
            }
            return chain.proceed(chain.request());
        }));
        assertThatThrownBy(() -> s.client().callTool("wipe", Map.of()))
                .isInstanceOf(McpVetoedException.class)
                .hasMessage("tools/call refused by an interceptor: tool 'wipe' is not allowed")
                .satisfies(e -> assertThat(((McpVetoedException) e).reason()).isEqualTo("tool 'wipe' is not allowed"));
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertThat(s.client().callTool("echo", Map.of()).text()).isEqualTo("echo");
        assertThat(s.client().pendingRequestCount()).isZero();
    }

    // ------------------------------------------------------------------------------------------------ rewrite

    @ParameterizedTest
    @EnumSource(Era.class)
    @SuppressWarnings("unchecked")
    void anInterceptorRewritesArgumentsAndMetaAndTheServerGetsTheRewrittenRequest(Era era) throws Exception {
        AtomicReference<OutgoingRequest> seen = new AtomicReference<>();
        Session s = connect(era, t -> { }, b -> b.addInterceptor(chain -> {
            seen.set(chain.request());
            OutgoingRequest r = chain.request()
                    .withToolArguments(Map.of("text", "rewritten"))
                    .withMeta(Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
            return chain.proceed(r);
        }));
        s.client().setToolMeta(Map.of("tenant", "t1"));
        s.client().callTool("echo", Map.of("text", "original", "password", "s3cret"),
                RequestOptions.newBuilder().putMeta("caller", "x").build());
        assertThat(seen.get().toolName()).contains("echo");
        assertThat(seen.get().toolArguments().orElseThrow()).containsEntry("text", "original");
        assertThat(seen.get().meta()).containsEntry("tenant", "t1").containsEntry("caller", "x");
        JsonRpcMessage.Request sent = s.server().awaitRequest("tools/call");
        assertThat((Map<String, Object>) sent.params().get("arguments")).containsExactly(Map.entry("text",
                "rewritten"));
        Map<String, Object> meta = (Map<String, Object>) sent.params().get("_meta");
        assertThat(meta).containsEntry("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .containsEntry("tenant", "t1").containsEntry("caller", "x");
        if (era == Era.MODERN) { // the envelope is added below the chain, over what the interceptors left
            assertThat(meta).containsKey("io.modelcontextprotocol/protocolVersion");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void traceContextAnInterceptorAddsNeitherDisablesTheReadCacheNorChangesItsKey() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("resources/read", r -> McpClientModernEraTest.complete(Map.of(
                "contents", List.of(Map.of("uri", "file:///x", "text", "x")), "ttlMs", 60_000))),
                b -> b.addInterceptor(chain -> chain.proceed(chain.request().withMeta(Map.of("traceparent",
                        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")))));
        s.client().readResource("file:///x", RequestOptions.DEFAULT);
        s.client().readResource("file:///x", RequestOptions.DEFAULT);
        assertThat(s.server().requests("resources/read")).singleElement().satisfies(r -> assertThat(
                (Map<String, Object>) r.params().get("_meta")).containsKey("traceparent"));
    }

    @Test
    void aReadAnInterceptorRewritesIsNotCachedUnderTheCallersUri() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("resources/read", r -> McpClientModernEraTest.complete(Map.of(
                "contents", List.of(Map.of("uri", r.params().get("uri"), "text", "x")), "ttlMs", 60_000))),
                b -> b.addInterceptor(chain -> chain.proceed(chain.request().withParams(Map.of("uri",
                        "file:///elsewhere")))));
        s.client().readResource("file:///x", RequestOptions.DEFAULT);
        s.client().readResource("file:///x", RequestOptions.DEFAULT);
        assertThat(s.server().requests("resources/read")).hasSize(2)
                .allSatisfy(r -> assertThat(r.params()).containsEntry("uri", "file:///elsewhere"));
    }

    @Test
    void anInterceptorMayNotChangeTheMethod() throws Exception {
        Session s = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(chain -> chain.proceed(
                OutgoingRequest.of("tools/list", null, RequestOptions.DEFAULT))));
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOf(McpInterceptorException.class)
                .cause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining("may not change the method");
        assertThat(s.server().requests("tools/call")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ answer

    @ParameterizedTest
    @EnumSource(Era.class)
    void anInterceptorAnswersWithoutSendingAndTheInnerOnesDoNotRun(Era era) throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicReference<McpResponse> outer = new AtomicReference<>();
        Session s = connect(era, t -> { }, b -> b
                .addInterceptor(chain -> {
                    McpResponse r = chain.proceed(chain.request());
                    outer.set(r);
                    return r;
                })
                .addInterceptor(chain -> McpResponse.of(new CallToolResult(List.of(
                        dev.loommcp.schema.TextContent.of("from the interceptor")), null, true, null)))
                .addInterceptor(recording("inner", log)));
        CallToolResult r = s.client().callTool("echo", Map.of());
        assertThat(r.text()).isEqualTo("from the interceptor");
        assertThat(r.error()).isTrue();
        assertThat(outer.get().fromServer()).isFalse();
        assertThat(outer.get().isToolError()).isTrue();
        assertThat(log).isEmpty();
        assertThat(s.server().requests("tools/call")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void theResponseOfTheServerSaysSoAndCarriesIsError(Era era) throws Exception {
        AtomicReference<McpResponse> seen = new AtomicReference<>();
        Session s = connect(era, t -> t.on("tools/call", r -> {
            Map<String, Object> result = new LinkedHashMap<>(toolResult("bad"));
            result.put("isError", true);
            if (era == Era.MODERN) {
                result.put("resultType", "complete");
            }
            return result;
        }), b -> b.addInterceptor(chain -> {
            McpResponse r = chain.proceed(chain.request());
            seen.set(r);
            return r;
        }));
        assertThat(s.client().callTool("echo", Map.of()).error()).isTrue();
        assertThat(seen.get().fromServer()).isTrue();
        assertThat(seen.get().isToolError()).isTrue();
        assertThat(seen.get().result()).containsKey("content");
    }

    // ------------------------------------------------------------------------------------------------ failures

    @ParameterizedTest
    @EnumSource(Era.class)
    void aFailingInterceptorFailsItsCallTypedAndTheClientStaysUsable(Era era) throws Exception {
        AtomicReference<Boolean> fail = new AtomicReference<>(true);
        McpInterceptor buggy = chain -> {
            if (fail.get()) {
                throw new IllegalStateException("bug");
            }
            return chain.proceed(chain.request());
        };
        Session s = connect(era, t -> { }, b -> b.addInterceptor(recording("outer", new ArrayList<>()))
                .addInterceptor(buggy));
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOfSatisfying(McpInterceptorException.class, e -> {
                    assertThat(e.position()).isEqualTo(2);
                    assertThat(e.interceptor()).isEqualTo("a lambda in " + McpClientInterceptorsTest.class.getName());
                    assertThat(e).hasMessage("the interceptor #2 (a lambda in " + McpClientInterceptorsTest.class
                            .getName() + ") failed on tools/call: java.lang.IllegalStateException");
                })
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(s.server().requests("tools/call")).isEmpty();
        fail.set(false);
        assertThat(s.client().callTool("echo", Map.of()).text()).isEqualTo("echo");
        assertThat(s.client().isConnected()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void theServersErrorPassesTheInterceptorsUnchangedNotAsTheirFailure(Era era) throws Exception {
        Session s = connect(era, t -> t.on("tools/call", r -> new JsonRpcError(-32602, "bad arguments", null)),
                b -> b.addInterceptor(recording("a", new ArrayList<>())).addInterceptor(recording("b",
                        new ArrayList<>())));
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOf(McpRpcException.class)
                .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(-32602));
    }

    /** An interceptor class of the application that names itself. */
    private static final class SelfNamed implements McpInterceptor {
        @Override
        public McpResponse intercept(Chain chain) {
            throw new IllegalStateException("bug");
        }

        @Override
        public String toString() {
            return "quota-check";
        }
    }

    @Test
    void aFailingInterceptorIsNamedByItsPositionAndByTheNameItWasGivenOrGivesItself() throws Exception {
        McpInterceptor pass = chain -> chain.proceed(chain.request());
        Session named = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(pass)
                .addInterceptor(McpInterceptor.named("audit", chain -> {
                    throw new IllegalStateException("bug");
                })));
        assertThatThrownBy(() -> named.client().ping()).isInstanceOfSatisfying(McpInterceptorException.class, e -> {
            assertThat(e.position()).isEqualTo(2);
            assertThat(e.interceptor()).isEqualTo("audit");
            assertThat(e).hasMessage("the interceptor #2 (audit) failed on ping: java.lang.IllegalStateException");
        });
        Session own = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(new SelfNamed()));
        assertThatThrownBy(() -> own.client().ping()).isInstanceOf(McpInterceptorException.class)
                .hasMessageContaining("#1 (quota-check)");
        assertThatThrownBy(() -> McpInterceptor.named(" ", pass)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpInterceptor.named("a\nb", pass)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpInterceptor.named("a", null)).isInstanceOf(NullPointerException.class);
        assertThat(McpInterceptor.named("audit", pass)).hasToString("audit");
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void aMalformedAnswerOfAnInterceptorFailsNamingThatInterceptorNotTheServer(Era era) throws Exception {
        AtomicReference<Map<String, Object>> answer = new AtomicReference<>(Map.of("content", "not a list"));
        Session s = connect(era, t -> { }, b -> b
                .addInterceptor(chain -> chain.proceed(chain.request())) // passes the inner one's answer on
                .addInterceptor(McpInterceptor.named("stub", chain -> McpResponse.of(answer.get()))));
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOfSatisfying(McpInterceptorException.class, e -> {
                    assertThat(e.position()).isEqualTo(2);
                    assertThat(e).hasMessageStartingWith("the interceptor #2 (stub) answered tools/call itself "
                            + "with an invalid result: ").hasMessageContaining("tools/call result");
                }).hasCauseInstanceOf(McpProtocolException.class);
        answer.set(Map.of()); // no content: the spec requires it of a tool's answer
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of())).isInstanceOf(McpInterceptorException.class)
                .hasMessageContaining("no \"content\" array");
        answer.set(Map.of("messages", "none")); // the same kind for the other typed results
        assertThatThrownBy(() -> s.client().getPrompt("p", Map.of())).isInstanceOf(McpInterceptorException.class)
                .hasMessageContaining("answered prompts/get itself").hasMessageContaining("\"messages\" is");
        answer.set(Map.of("content", List.of(Map.of("type", "text", "text", "ok"))));
        assertThat(s.client().callTool("echo", Map.of()).text()).isEqualTo("ok");
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertThat(s.client().isConnected()).isTrue();
    }

    @Test
    void theConnectionNamesTheServerAsTheUserKnowsIt() throws Exception {
        List<String> servers = new CopyOnWriteArrayList<>();
        McpInterceptor record = chain -> {
            servers.add(chain.connection().server());
            return chain.proceed(chain.request());
        };
        connect(Era.LEGACY, t -> { }, b -> b.serverName("github").addInterceptor(record)).client().ping();
        connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(record)).client().ping();
        assertThat(servers).containsExactly("github", "scripted-server"); // else the transport's description
    }

    @Test
    void anInterceptorAnswersWithAResultRecordOrAMapButNotAnyObject() {
        assertThat(McpResponse.class.getMethods()).filteredOn(m -> m.getName().equals("of"))
                .extracting(m -> m.getParameterTypes()[0]).containsExactlyInAnyOrder(Map.class, Record.class);
        assertThat(McpResponse.of(CallToolResult.ofText("x")).result()).containsKey("content");
    }

    @Test
    void anInterceptorThatCallsItsOwnClientForEveryRequestFailsTypedInsteadOfOverflowingTheStack()
            throws Exception {
        AtomicReference<McpClient> self = new AtomicReference<>();
        Session s = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(McpInterceptor.named("echoer", chain -> {
            self.get().ping(); // no guard: each ping runs this interceptor again
            return chain.proceed(chain.request());
        })));
        self.set(s.client());
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOfSatisfying(McpInterceptorException.class, e -> assertThat(e.interceptor())
                        .isEqualTo("echoer"))
                .rootCause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("entered " + 8 + " times on this thread");
        assertThat(s.server().requests("ping")).isEmpty();
        assertThat(s.client().isConnected()).isTrue();
    }

    @Test
    void anInterceptorThatReturnsNullFailsTyped() throws Exception {
        Session s = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(chain -> null));
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                .isInstanceOf(McpInterceptorException.class).hasCauseInstanceOf(NullPointerException.class);
    }

    // ------------------------------------------------------------------------------------------------ scope

    @ParameterizedTest
    @EnumSource(Era.class)
    void anInterceptorRunsOnTheCallersThreadInsideTheRequestAndReadsItsIdAfterProceed(Era era) throws Exception {
        AtomicReference<String> thread = new AtomicReference<>();
        AtomicReference<McpContext> current = new AtomicReference<>();
        AtomicReference<@Nullable RequestId> before = new AtomicReference<>();
        AtomicReference<RequestId> after = new AtomicReference<>();
        AtomicReference<McpConnection> connection = new AtomicReference<>();
        Session s = connect(era, t -> { }, b -> b.addInterceptor(chain -> {
            thread.set(Thread.currentThread().getName());
            current.set(McpContext.current().orElseThrow());
            before.set(chain.context().requestId().orElse(null));
            McpResponse r = chain.proceed(chain.request());
            after.set(chain.context().requestId().orElseThrow());
            connection.set(chain.connection());
            return r;
        }));
        s.client().callTool("echo", Map.of(), RequestOptions.ofTimeout(Duration.ofMinutes(3)));
        assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
        assertThat(current.get().method()).isEqualTo("tools/call");
        assertThat(current.get().remaining().orElseThrow()).isLessThanOrEqualTo(Duration.ofMinutes(3))
                .isGreaterThan(Duration.ofMinutes(1));
        assertThat(current.get().parent()).isEmpty();
        assertThat(before.get()).isNull();
        assertThat(after.get()).isEqualTo(s.server().awaitRequest("tools/call").id());
        McpConnection c = connection.get();
        assertThat(c.era()).contains(era);
        assertThat(c.protocolVersion()).contains(era == Era.MODERN ? "2026-07-28" : "2025-11-25");
        assertThat(c.sessionId()).isEmpty();
        assertThat(c.transport()).isEqualTo(TransportInfo.other());
        assertThat(c.server()).isEqualTo(s.server().describe());
        assertThat(c.serverInfo()).isPresent();
    }

    @Test
    void aNestedCallOfAnInterceptorRunsInsideTheRequestAndSeesItAsParent() throws Exception {
        AtomicReference<String> parentMethod = new AtomicReference<>();
        Session s = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(chain -> {
            if (chain.request().method().equals("tools/list")) {
                parentMethod.set(chain.context().parent().map(McpContext::method).orElse("none"));
            } else {
                holder.get().listTools(null, RequestOptions.DEFAULT); // e.g. to learn the tool's annotations
            }
            return chain.proceed(chain.request());
        }));
        holder.set(s.client());
        s.client().callTool("echo", Map.of());
        assertThat(parentMethod.get()).isEqualTo("tools/call");
    }

    private final AtomicReference<McpClient> holder = new AtomicReference<>();

    @ParameterizedTest
    @EnumSource(Era.class)
    void theChainToolIsTheListedDefinitionWithItsAnnotations(Era era) throws Exception {
        AtomicReference<Boolean> destructive = new AtomicReference<>();
        Session s = connect(era, t -> { }, b -> b.addInterceptor(chain -> {
            if (chain.request().toolName().isPresent()) {
                destructive.set(chain.tool().map(t -> t.annotations() != null
                        && Boolean.TRUE.equals(t.annotations().destructiveHint())).orElse(null));
            }
            return chain.proceed(chain.request());
        }));
        s.client().callTool("wipe", Map.of());
        assertThat(destructive.get()).isNull(); // not listed yet
        s.client().listAllTools();
        s.client().callTool("wipe", Map.of());
        assertThat(destructive.get()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Era.class)
    void anInterceptorWaitingWithAwaitEndsAtTheDeadlineOrWhenTheTokenFiresAndProceedsWhenTheFutureCompletes(Era era)
            throws Exception {
        AtomicReference<CompletableFuture<Boolean>> approval = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Session s = connect(era, t -> { }, b -> b.addInterceptor(chain -> {
            CompletableFuture<Boolean> decision = new CompletableFuture<>();
            approval.set(decision);
            waiting.countDown();
            if (!chain.await(decision)) {
                throw new McpVetoedException(chain.request().method(), "not approved");
            }
            return chain.proceed(chain.request());
        }));
        // the deadline passes while it waits
        assertThatThrownBy(() -> s.client().callTool("echo", Map.of(), RequestOptions.ofTimeout(
                Duration.ofMillis(200)))).isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("while an interceptor waited");
        // the token fires while it waits: the call stops waiting at once
        CancellationToken token = CancellationToken.create();
        CompletableFuture<CallToolResult> call = s.client().callToolAsync("echo", Map.of(),
                RequestOptions.newBuilder().token(token).timeout(Duration.ofMinutes(5)).build());
        assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
        token.cancel("user gave up");
        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpCancelledException.class)
                .hasMessageContaining("user gave up");
        // approved: the call goes out
        approval.set(null);
        CompletableFuture<CallToolResult> approved = s.client().callToolAsync("echo", Map.of(),
                RequestOptions.ofTimeout(Duration.ofMinutes(5)));
        dev.loommcp.testing.Await.until("the interceptor waits", () -> approval.get() != null);
        approval.get().complete(true);
        assertThat(approved.get(10, TimeUnit.SECONDS).text()).isEqualTo("echo");
        assertThat(s.server().requests("tools/call")).hasSize(1);
    }

    @Test
    void anInterceptorWaitingWithAwaitStopsWhenTheScopeTheCallIsMadeInEnds() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        Session s = connect(Era.LEGACY, t -> { }, b -> b.addInterceptor(chain -> {
            waiting.countDown();
            chain.await(new CompletableFuture<Boolean>()); // never answered
            return chain.proceed(chain.request());
        }));
        try (dev.loommcp.internal.scope.Scope<Object, Void> outer = dev.loommcp.internal.scope.Scope.open("outer",
                dev.loommcp.internal.scope.Joiner.awaitAll(), Deadline.NONE)) {
            Thread canceller = Thread.ofVirtual().start(() -> {
                try {
                    waiting.await();
                } catch (InterruptedException e) {
                    return;
                }
                outer.cancel();
            });
            assertThatThrownBy(() -> s.client().callTool("echo", Map.of()))
                    .isInstanceOf(McpCancelledException.class).hasMessageContaining("while an interceptor waited");
            canceller.join();
        }
        assertThat(s.server().requests("tools/call")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ inbound

    @Test
    void serverRequestsOfThe2025EraPassTheServerRequestInterceptorsWhichMayVetoOrAnswer() throws Exception {
        List<ServerRequest> seen = new CopyOnWriteArrayList<>();
        Session s = connect(Era.LEGACY, t -> { }, b -> b
                .rootsHandler(() -> List.of(dev.loommcp.schema.Root.of("file:///home", null)))
                .elicitationHandler(r -> ElicitResult.accept(Map.of("ok", true)))
                .addServerRequestInterceptor(chain -> {
                    seen.add(chain.request());
                    assertThat(chain.connection().era()).contains(Era.LEGACY);
                    return chain.proceed(chain.request());
                })
                .addServerRequestInterceptor(chain -> switch (chain.request().method()) {
                    case "roots/list" -> throw new McpVetoedException("roots/list", "roots are private");
                    case "elicitation/create" -> Map.of("action", "decline");
                    default -> chain.proceed(chain.request());
                }));
        RequestId roots = RequestId.of("r1");
        s.server().deliver(new JsonRpcMessage.Request(roots, "roots/list", null));
        JsonRpcMessage answer = s.server().awaitAnswerTo(roots);
        assertThat(answer).isInstanceOfSatisfying(JsonRpcMessage.ErrorResponse.class, e -> {
            assertThat(e.error().code()).isEqualTo(JsonRpcError.INVALID_REQUEST);
            assertThat(e.error().message()).isEqualTo("the client refused roots/list: roots are private");
        });
        RequestId elicit = RequestId.of("e1");
        s.server().deliver(new JsonRpcMessage.Request(elicit, "elicitation/create", Map.of("message", "ok?",
                "requestedSchema", Map.of("type", "object", "properties", Map.of()))));
        assertThat(s.server().awaitAnswerTo(elicit)).isInstanceOfSatisfying(JsonRpcMessage.Response.class,
                r -> assertThat(((Map<?, ?>) r.result()).get("action")).isEqualTo("decline"));
        assertThat(seen).extracting(ServerRequest::method).containsExactly("roots/list", "elicitation/create");
        assertThat(seen.get(0).requestId()).contains(roots);
        assertThat(seen.get(0).inputKey()).isEmpty();
    }

    @Test
    void aFailingServerRequestInterceptorIsAnsweredAsAnInternalErrorAndAnInvalidAnswerIsRefused() throws Exception {
        Session s = connect(Era.LEGACY, t -> { }, b -> b
                .rootsHandler(() -> List.of())
                .samplingHandler(r -> dev.loommcp.schema.CreateMessageResult.ofText("m", "hi"))
                .addServerRequestInterceptor(chain -> switch (chain.request().method()) {
                    case "roots/list" -> throw new IllegalStateException("bug");
                    default -> Map.of("role", "wizard"); // not an answer a handler may give
                }));
        RequestId roots = RequestId.of("r2");
        s.server().deliver(new JsonRpcMessage.Request(roots, "roots/list", null));
        assertThat(s.server().awaitAnswerTo(roots)).isInstanceOfSatisfying(JsonRpcMessage.ErrorResponse.class,
                e -> assertThat(e.error().code()).isEqualTo(JsonRpcError.INTERNAL_ERROR));
        RequestId sample = RequestId.of("s1");
        s.server().deliver(new JsonRpcMessage.Request(sample, "sampling/createMessage", Map.of("messages",
                List.of(), "maxTokens", 10)));
        assertThat(s.server().awaitAnswerTo(sample)).isInstanceOfSatisfying(JsonRpcMessage.ErrorResponse.class,
                e -> assertThat(e.error().code()).isEqualTo(JsonRpcError.INTERNAL_ERROR));
        assertThat(s.client().callTool("echo", Map.of()).text()).isEqualTo("echo");
    }

    private static Map<String, Object> inputRequired() {
        return Map.of("resultType", "input_required", "inputRequests", Map.of("confirm", Map.of("method",
                "elicitation/create", "params", Map.of("message", "ok?", "requestedSchema", Map.of("type", "object",
                        "properties", Map.of())))), "requestState", "st");
    }

    @Test
    void inputRequestsOfThe2026EraPassTheServerRequestInterceptorsInsideTheCall() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Session s = connect(Era.MODERN, t -> t.on("tools/call", r -> r.params().containsKey("inputResponses")
                ? McpClientModernEraTest.complete(Map.of("content", List.of(Map.of("type", "text", "text",
                        String.valueOf(((Map<?, ?>) ((Map<?, ?>) r.params().get("inputResponses")).get("confirm"))
                                .get("action"))))))
                : inputRequired()), b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of()))
                .addServerRequestInterceptor(chain -> {
                    seen.add(chain.request().method() + " " + chain.request().inputKey().orElseThrow() + " in "
                            + chain.context().map(McpContext::method).orElse("none") + " "
                            + chain.request().era());
                    return chain.request().inputKey().orElseThrow().equals("confirm") ? Map.of("action", "decline")
                            : chain.proceed(chain.request());
                }));
        assertThat(s.client().callTool("deploy", Map.of()).text()).isEqualTo("decline");
        assertThat(seen).containsExactly("elicitation/create confirm in tools/call MODERN");
    }

    @Test
    void aVetoOfAnInputRequestFailsTheCallWithTheVeto() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("tools/call", r -> inputRequired()), b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of()))
                .addServerRequestInterceptor(chain -> {
                    throw new McpVetoedException(chain.request().method(), "no questions");
                }));
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of())).isInstanceOf(McpVetoedException.class)
                .hasMessageContaining("no questions");
        assertThat(s.server().requests("tools/call")).hasSize(1); // not retried
    }

    @Test
    void aFailingInterceptorOfAnInputRequestFailsTheCallTyped() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("tools/call", r -> inputRequired()), b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of()))
                .addServerRequestInterceptor(chain -> {
                    throw new IllegalStateException("bug");
                }));
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of())).isInstanceOf(McpInterceptorException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(s.client().isConnected()).isTrue();
    }

    @Test
    void anInvalidAnswerOfAServerRequestInterceptorFailsNamingTheInterceptorThatMadeIt() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("tools/call", r -> inputRequired()), b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of()))
                .addServerRequestInterceptor(chain -> chain.proceed(chain.request())) // passes it on unchanged
                .addServerRequestInterceptor(ServerRequestInterceptor.named("stub",
                        chain -> Map.of("action", 42))));
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of()))
                .isInstanceOfSatisfying(McpInterceptorException.class, e -> {
                    assertThat(e.position()).isEqualTo(2);
                    assertThat(e).hasMessageStartingWith(
                            "the interceptor #2 (stub) answered elicitation/create itself with an invalid result: ");
                }).hasCauseInstanceOf(McpProtocolException.class);
        assertThat(s.client().isConnected()).isTrue();
    }

    @Test
    void aFailingServerRequestInterceptorIsNamedByItsPositionAndName() throws Exception {
        Session s = connect(Era.MODERN, t -> t.on("tools/call", r -> inputRequired()), b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of()))
                .addServerRequestInterceptor(chain -> chain.proceed(chain.request()))
                .addServerRequestInterceptor(ServerRequestInterceptor.named("consent", chain -> {
                    throw new IllegalStateException("bug");
                })));
        assertThatThrownBy(() -> s.client().callTool("deploy", Map.of()))
                .isInstanceOfSatisfying(McpInterceptorException.class, e -> assertThat(e).hasMessage(
                        "the interceptor #2 (consent) failed on elicitation/create: java.lang.IllegalStateException"));
    }
}
