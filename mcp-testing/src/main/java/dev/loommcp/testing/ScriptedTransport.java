package dev.loommcp.testing;

import dev.loommcp.McpException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory {@link McpTransport} with a scriptable fake MCP server behind it, so that code which holds an
 * {@code McpClient} can be unit-tested without a process or a socket (loom-mcp's own client tests use it too).
 *
 * <pre>{@code
 * ScriptedTransport server = ScriptedTransport.create()
 *         .on("tools/call", request -> Map.of("content", List.of(Map.of("type", "text", "text", "42"))));
 * try (McpClient client = McpClient.newBuilder(server).build()) {
 *     client.connect();
 *     assertEquals("42", client.callTool("answer", Map.of()).text());
 * }
 * assertEquals(1, server.requests("tools/call").size());
 * }</pre>
 *
 * <p><b>The fake server.</b> It answers each request the client sends with the {@link Responder} registered for the
 * request's method ({@link #on}). A responder returns a result (a {@code Map}, or {@code null} for {@code {}}), a
 * {@link JsonRpcError} (sent as an error response), a whole {@link JsonRpcMessage}, or {@link #HOLD} to not answer now:
 * the test answers later with {@link #reply}/{@link #replyError}, in any order, or never. A responder that throws is
 * answered with {@code -32603} (internal error). Defaults: {@code initialize} answers with
 * {@link #protocolVersion(String)} (default {@value #DEFAULT_PROTOCOL_VERSION}), {@link #serverCapabilities(Map)}
 * (default {@code {"tools":{"listChanged":true}}}) and {@link #serverInfo(Map)} (default
 * {@code {"name":"scripted-server","version":"1.0.0"}}); {@code ping} answers {@code {}}; any other method is answered
 * with {@code -32601} (method not found). Notifications and the client's answers to server requests are only recorded.
 *
 * <p><b>The wire.</b> Every message in either direction is encoded and decoded back with the core's framing
 * ({@link JsonRpcFraming#standard()}), so what is recorded and what the client receives are exactly what would travel
 * on a wire (integers come back as {@code Integer}, objects as maps).
 *
 * <p><b>Delivery</b>, in one of two {@link Mode}s, as the SPI allows:
 * <ul>
 *   <li>{@link Mode#INLINE} (stdio-like, the default of {@link #create()}): {@link #send} records the message and
 *       returns at once; everything inbound (answers, and what the test pushes with {@link #deliver}/
 *       {@link #notifyClient}) is handed to the client in order by one reader thread, named
 *       {@code mcp-testing-reader}, which ends on {@link #close()} or {@link #lose}.</li>
 *   <li>{@link Mode#BLOCKING} (HTTP-like): {@link #send} of a request returns at once and runs the request's exchange
 *       on a thread of the request's scope ({@link SendContext#fork}), which delivers what the fake server puts on that
 *       request's stream ({@link #deliverOn}: progress, server requests, then the answer) and ends with the answer.
 *       The exchange ends early, reported to the sink's {@code onSendFailed}, when the core runs the
 *       {@link SendContext#onCancel} hooks, or when its thread is interrupted. Messages not tied to a request
 *       ({@link #deliver}) go through the reader thread, like a GET stream.</li>
 * </ul>
 *
 * <p><b>Observation.</b> Every sent message is recorded ({@link #sent()}, {@link #requests}, {@link #notifications},
 * with what the core passed along in {@link #sendRecords()}); the {@code await...} methods block on a condition (never
 * sleep) for at most {@link #awaitTimeout(Duration)} (default 10 seconds) and then throw {@link AssertionError}, so they
 * work in any test framework. The bound is a safety net, not a statement about speed.
 *
 * <p><b>Faults.</b> {@link #lose} simulates the loss of the connection (the sink's {@code onClosed} runs on the calling
 * thread); {@link #failOpen}, {@link #failSend}, {@link #expireSession} and {@link #deliverJson} (raw, possibly
 * malformed, JSON) script the other failures a real transport reports. After {@link #close()} or a loss, {@link #send}
 * throws {@link McpTransportException} (the message is recorded in {@link #rejectedSends()}) and nothing more reaches
 * the client.
 *
 * <p>Thread-safe: responders run on the client's sending thread (inline mode) or on the exchange's thread (blocking
 * mode); every other method may be called from any thread.
 */
public final class ScriptedTransport implements McpTransport {

    /** The protocol version the default {@code initialize} responder answers with unless told otherwise. */
    public static final String DEFAULT_PROTOCOL_VERSION = "2025-11-25";

    /** How sends behave; see the class comment. */
    public enum Mode {
        /** stdio-like: send records and returns; one reader thread delivers everything inbound, in order. */
        INLINE,
        /**
         * HTTP-like: send returns at once and each request's exchange runs on a thread of its own
         * ({@link SendContext#fork}), carrying that request's stream; {@link McpTransport#exchangePerRequest()} is
         * {@code true}.
         */
        BLOCKING
    }

    /** A responder's answer meaning "do not answer now"; the test answers later with {@link #reply}, or never. */
    public static final Object HOLD = new Object() {
        @Override
        public String toString() {
            return "HOLD";
        }
    };

    /** How the fake server answers one request. Runs on the thread that handles the request (see the class comment). */
    @FunctionalInterface
    public interface Responder {
        /**
         * Answers a request.
         *
         * @param request the request the client sent, as decoded from the wire
         * @return a result ({@code Map}), {@code null} for an empty result, a {@link JsonRpcError}, a whole
         *         {@link JsonRpcMessage}, or {@link #HOLD}
         * @throws Exception any exception, answered to the client as a {@code -32603} internal error
         */
        @Nullable Object answer(JsonRpcMessage.Request request) throws Exception;
    }

    /**
     * What the core passed along with one sent message.
     *
     * @param message       the message (wire form)
     * @param requestId     {@link SendContext#requestId()}
     * @param deadlineNanos {@link SendContext#deadline()} as a {@link System#nanoTime()} value
     * @param thread        the name of the sending thread
     * @param routing       {@link SendContext#routing()}: present in the modern era only
     */
    public record SendRecord(JsonRpcMessage message, RequestId requestId, long deadlineNanos, String thread,
                             Optional<dev.loommcp.spi.RequestRouting> routing) {
    }

    private final Mode mode;
    /** What was sent, and the condition the {@code await...} methods wait on. */
    private final SendLog log = new SendLog();
    /** How the fake server answers. */
    private final ScriptedAnswers answers = new ScriptedAnswers();
    /** Open, send, the reader, close and loss, the faults. */
    private final ScriptedConnection connection;
    /** The blocking mode's exchanges, one per request. */
    private final ScriptedExchanges exchanges;
    private volatile @Nullable Supplier<ScriptedTransport> probes;
    private final List<ScriptedTransport> probesMade = new CopyOnWriteArrayList<>();
    private volatile @Nullable String serverKey;

    private ScriptedTransport(Mode mode) {
        this.mode = mode;
        this.connection = new ScriptedConnection(mode, log, answers);
        this.exchanges = connection.exchanges();
    }

    /**
     * Creates an {@link Mode#INLINE} (stdio-like) transport whose fake server answers {@code initialize} and
     * {@code ping} (see the class comment).
     *
     * @return a new, unopened transport; open it by handing it to {@code McpClient.newBuilder} and connecting
     */
    public static ScriptedTransport create() {
        return create(Mode.INLINE);
    }

    /**
     * Creates a transport in the given mode whose fake server answers {@code initialize} and {@code ping}.
     *
     * @param mode inline (stdio-like) or blocking (HTTP-like)
     * @return a new, unopened transport
     * @throws NullPointerException if {@code mode} is {@code null}
     */
    public static ScriptedTransport create(Mode mode) {
        return new ScriptedTransport(Objects.requireNonNull(mode, "mode"));
    }

    /**
     * Returns the mode.
     *
     * @return the mode
     */
    public Mode mode() {
        return mode;
    }

    // ------------------------------------------------------------------------------------------------ script

    /**
     * Sets the protocol version the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param version the version, or {@code null} for none
     * @return this
     */
    public ScriptedTransport protocolVersion(@Nullable String version) {
        answers.protocolVersion(version);
        return this;
    }

    /**
     * Sets the capabilities the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param capabilities the capabilities (plain JSON), or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverCapabilities(@Nullable Map<String, @Nullable Object> capabilities) {
        answers.serverCapabilities(capabilities);
        return this;
    }

    /**
     * Sets the server info the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param info the info (plain JSON), or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverInfo(@Nullable Map<String, @Nullable Object> info) {
        answers.serverInfo(info);
        return this;
    }

    /**
     * Sets how long the {@code await...} methods wait before failing.
     *
     * @param timeout the bound; default 10 seconds
     * @return this
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public ScriptedTransport awaitTimeout(Duration timeout) {
        log.awaitTimeout(timeout);
        return this;
    }

    /**
     * Makes {@link #open} throw, as a transport that cannot start its server or reach it.
     *
     * @param failure the exception to throw, or {@code null} to open normally
     * @return this
     */
    public ScriptedTransport failOpen(@Nullable RuntimeException failure) {
        connection.failOpen(failure);
        return this;
    }

    /**
     * Returns the result the default {@code initialize} responder answers with, so a custom responder can extend it.
     *
     * @return a new mutable map
     */
    public Map<String, @Nullable Object> initializeResult() {
        return answers.initializeResult();
    }

    /**
     * Sets how the fake server answers a method (replacing any earlier responder, including the defaults).
     *
     * @param method    the JSON-RPC method, for example {@code "tools/call"}
     * @param responder the responder
     * @return this
     * @throws NullPointerException if an argument is {@code null}
     */
    public ScriptedTransport on(String method, Responder responder) {
        answers.on(method, responder);
        return this;
    }

    /**
     * Makes the fake server leave a method unanswered; the test answers with {@link #reply}/{@link #replyError}, or
     * never (the client's call then ends by its own deadline or cancellation).
     *
     * @param method the method
     * @return this
     * @throws NullPointerException if {@code method} is {@code null}
     */
    public ScriptedTransport hold(String method) {
        return on(method, r -> HOLD);
    }

    // ------------------------------------------------------------------------------------------------ server side

    /**
     * Answers a request with a result: on the request's stream while its exchange is open (blocking mode), otherwise
     * through the reader (a late answer after the exchange ended is delivered like that too).
     *
     * @param id     the request id
     * @param result the result (plain JSON values), or {@code null} for {@code {}}
     */
    public void reply(RequestId id, @Nullable Map<String, @Nullable Object> result) {
        deliverOn(id, new JsonRpcMessage.Response(id, result == null ? Map.of() : result));
    }

    /**
     * Answers a request with a JSON-RPC error without data; see {@link #reply}.
     *
     * @param id      the request id
     * @param code    the error code, for example {@link JsonRpcError#INVALID_PARAMS}
     * @param message the error message
     */
    public void replyError(RequestId id, int code, String message) {
        replyError(id, code, message, null);
    }

    /**
     * Answers a request with a JSON-RPC error; see {@link #reply}.
     *
     * @param id      the request id
     * @param code    the error code
     * @param message the error message
     * @param data    the error data (plain JSON values), or {@code null}
     */
    public void replyError(RequestId id, int code, String message, @Nullable Object data) {
        deliverOn(id, new JsonRpcMessage.ErrorResponse(id, new JsonRpcError(code, message, data)));
    }

    /**
     * Delivers a message on the stream of request {@code id} while its exchange is open (blocking mode), otherwise
     * through the reader thread.
     *
     * @param id      the request whose stream carries it
     * @param message the message
     */
    public void deliverOn(RequestId id, JsonRpcMessage message) {
        connection.deliverOn(id, wire(message));
    }

    /**
     * Delivers a message through the reader thread (stdio stdout, HTTP GET stream), after everything queued before.
     *
     * @param message a notification, a server request (the client's answer shows up in {@link #sent()}), or a
     *                response
     */
    public void deliver(JsonRpcMessage message) {
        connection.deliver(wire(message));
    }

    /**
     * Delivers JSON text through the reader thread, decoded with the core's framing as a transport would decode what
     * it read (a batch array gives several messages).
     *
     * @param json the text
     * @throws dev.loommcp.McpProtocolException if the text is not JSON-RPC (the framing's error, on this thread)
     */
    public void deliverJson(String json) {
        connection.deliverJson(json);
    }

    /**
     * Delivers a notification through the reader thread.
     *
     * @param method the method
     * @param params the params, or {@code null}
     */
    public void notifyClient(String method, @Nullable Map<String, @Nullable Object> params) {
        deliver(new JsonRpcMessage.Notification(method, params));
    }

    /**
     * Delivers a message to the sink on this thread, at once, bypassing the reader and the closed check: what a
     * reader thread racing with {@link #close()} could do.
     *
     * @param message the message
     * @throws IllegalStateException if the transport was never opened
     */
    public void deliverNow(JsonRpcMessage message) {
        connection.deliverNow(message);
    }

    /**
     * Expires the server's session, as an HTTP server that answers 404 for an unknown session: every request sent
     * from now on but {@code initialize} (recorded, then refused with {@link McpSessionExpiredException}) until the
     * client sends {@code notifications/initialized}, which establishes the new session.
     */
    public void expireSession() {
        connection.expireSession();
    }

    /**
     * Reports through the sink that sending the request {@code id} failed, as a transport whose exchange broke after
     * {@code send} returned does ({@link TransportSink#onSendFailed}), on this thread.
     *
     * @param id    the request's id
     * @param cause the failure
     * @throws IllegalStateException if the transport was never opened
     */
    public void failSend(RequestId id, McpException cause) {
        connection.failSend(id, cause);
    }

    /**
     * Returns how many requests were refused because the session had expired.
     *
     * @return the count
     */
    public int expiredRequests() {
        return connection.expiredRequests();
    }

    /**
     * Sets an action run at the start of the first {@link #close()}, before the transport counts as closed (on the
     * closing thread).
     *
     * @param action the action, or {@code null} for none
     * @return this
     */
    public ScriptedTransport onClose(@Nullable Runnable action) {
        connection.onClose(action);
        return this;
    }

    /**
     * Simulates the loss of the transport: calls {@link TransportSink#onClosed} on this thread (so the core's
     * reaction to it has happened when this returns), then ends every open exchange and the reader. Later sends are
     * rejected.
     *
     * @param cause the cause handed to the sink
     */
    public void lose(McpTransportException cause) {
        connection.lose(cause);
    }

    // ------------------------------------------------------------------------------------------------ SPI

    @Override
    public void open(TransportContext context) {
        connection.open(context);
    }

    /**
     * Records, at each send of a request of {@code method}, the frames of the sending thread above this transport's
     * {@code send} (innermost first, as {@code SimpleClassName.method}): how the core reached the transport.
     *
     * @param method the request method whose sends are recorded
     * @return this transport
     */
    public ScriptedTransport recordStacksOf(String method) {
        log.recordStacksOf(method);
        return this;
    }

    /**
     * Returns the stacks recorded at the sends of {@link #recordStacksOf}'s method, in send order.
     *
     * @return a snapshot
     */
    public List<List<String>> sendStacks() {
        return log.sendStacks();
    }

    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        log.stackOfSend(message);
        connection.send(wire(message), context);
    }

    /**
     * Makes {@link #probeTransport()} return a new transport from {@code factory} each time (as stdio does), instead
     * of empty (as HTTP does).
     *
     * @param factory makes an unopened probe transport
     * @return this
     */
    public ScriptedTransport probes(Supplier<ScriptedTransport> factory) {
        this.probes = factory;
        return this;
    }

    /**
     * Returns the probe transports {@link #probeTransport()} handed out, in order.
     *
     * @return a snapshot
     */
    public List<ScriptedTransport> probesMade() {
        return List.copyOf(probesMade);
    }

    /**
     * Sets what {@link #serverKey()} returns.
     *
     * @param key the key, or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverKey(@Nullable String key) {
        this.serverKey = key;
        return this;
    }

    @Override
    public Optional<McpTransport> probeTransport() {
        Supplier<ScriptedTransport> factory = probes;
        if (factory == null) {
            return Optional.empty();
        }
        ScriptedTransport probe = factory.get();
        probesMade.add(probe);
        return Optional.of(probe);
    }

    @Override
    public Optional<String> serverKey() {
        return Optional.ofNullable(serverKey);
    }

    /** {@code true} in {@link Mode#BLOCKING} (HTTP-like: one exchange per request). */
    @Override
    public boolean exchangePerRequest() {
        return mode == Mode.BLOCKING;
    }

    @Override
    public void handshakeCompleted(String protocolVersion) {
        connection.handshakeCompleted(protocolVersion);
    }

    @Override
    public String describe() {
        return "scripted-server";
    }

    @Override
    public void close() {
        connection.close();
    }

    // ------------------------------------------------------------------------------------------------ observation

    /**
     * Returns every message sent so far (wire form), in order.
     *
     * @return a snapshot
     */
    public List<JsonRpcMessage> sent() {
        return log.sent();
    }

    /**
     * Returns what the core passed with each sent message, in send order.
     *
     * @return a snapshot
     */
    public List<SendRecord> sendRecords() {
        return log.records();
    }

    /**
     * Returns the record of the first sent message that matches.
     *
     * @param predicate the match
     * @return the record
     * @throws AssertionError if none matches
     */
    public SendRecord recordOf(Predicate<JsonRpcMessage> predicate) {
        return sendRecords().stream().filter(r -> predicate.test(r.message())).findFirst()
                .orElseThrow(() -> new AssertionError("no such message sent"));
    }

    /**
     * Returns the messages the client tried to send after close or loss.
     *
     * @return a snapshot
     */
    public List<JsonRpcMessage> rejectedSends() {
        return log.rejected();
    }

    /**
     * Returns the sent requests with the given method.
     *
     * @param method the method
     * @return a snapshot
     */
    public List<JsonRpcMessage.Request> requests(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                .map(m -> (JsonRpcMessage.Request) m).toList();
    }

    /**
     * Returns the sent notifications with the given method.
     *
     * @param method the method
     * @return a snapshot
     */
    public List<JsonRpcMessage.Notification> notifications(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
                .map(m -> (JsonRpcMessage.Notification) m).toList();
    }

    /**
     * Returns the sent responses and error responses to the given (server request) id.
     *
     * @param id the id
     * @return a snapshot
     */
    public List<JsonRpcMessage> answersTo(RequestId id) {
        return sent().stream().filter(m -> ScriptedAnswers.answers(m, id)).toList();
    }

    /**
     * Waits for the first sent message that matches.
     *
     * @param what      description for the failure message
     * @param predicate the match
     * @return the message
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public JsonRpcMessage awaitSent(String what, Predicate<JsonRpcMessage> predicate) {
        return log.await("the client to send " + what, sent -> {
            for (JsonRpcMessage m : sent) {
                if (predicate.test(m)) {
                    return m;
                }
            }
            return null;
        });
    }

    /**
     * Waits until at least {@code count} requests with the method were sent and returns the first {@code count}.
     *
     * @param method the method
     * @param count  how many
     * @return the requests in send order
     * @throws AssertionError if fewer come within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public List<JsonRpcMessage.Request> awaitRequests(String method, int count) {
        return log.await(count + " " + method + " requests", sent -> {
            List<JsonRpcMessage.Request> found = sent.stream()
                    .filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                    .map(m -> (JsonRpcMessage.Request) m).toList();
            return found.size() >= count ? found.subList(0, count) : null;
        });
    }

    /**
     * Waits for the first request with the method.
     *
     * @param method the method
     * @return the request
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage.Request awaitRequest(String method) {
        return awaitRequests(method, 1).get(0);
    }

    /**
     * Waits for the first notification with the method.
     *
     * @param method the method
     * @return the notification
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage.Notification awaitNotification(String method) {
        return (JsonRpcMessage.Notification) awaitSent("a " + method + " notification",
                m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method));
    }

    /**
     * Waits for the client's answer (response or error response) to a server request.
     *
     * @param id the server request's id
     * @return the answer
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage awaitAnswerTo(RequestId id) {
        return awaitSent("an answer to server request " + id, m -> ScriptedAnswers.answers(m, id));
    }

    /**
     * Waits until the blocking-mode send of request {@code id} has returned or thrown.
     *
     * @param id the request id
     * @throws AssertionError if it does not end within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public void awaitSendFinished(RequestId id) {
        log.await("the send of request " + id + " to end", sent -> exchanges.finished(id) ? id : null);
    }

    /**
     * Returns whether the core ran the {@link SendContext#onCancel} hook of request {@code id} (blocking mode).
     *
     * @param id the request id
     * @return whether it ran
     */
    public boolean cancelHookRan(RequestId id) {
        return exchanges.cancelHookRan(id);
    }

    /**
     * Returns whether the blocking-mode send of request {@code id} ended with an interrupt.
     *
     * @param id the request id
     * @return whether it was interrupted
     */
    public boolean sendInterrupted(RequestId id) {
        return exchanges.interrupted(id);
    }

    /**
     * Returns how many blocking-mode exchanges are open.
     *
     * @return the count
     */
    public int openExchanges() {
        return exchanges.openCount();
    }

    /**
     * Returns how often {@link #open} was called.
     *
     * @return the count
     */
    public int openCount() {
        return connection.openCount();
    }

    /**
     * Returns how often {@link #close()} was called.
     *
     * @return the count
     */
    public int closeCount() {
        return connection.closeCount();
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether closed
     */
    public boolean isClosed() {
        return connection.isClosed();
    }

    /**
     * Returns the deadline passed to {@link #open}.
     *
     * @return the {@link System#nanoTime()} deadline
     */
    public long openDeadline() {
        return connection.openDeadline();
    }

    /**
     * Returns the version passed to {@link #handshakeCompleted}.
     *
     * @return the version, or empty if not called
     */
    public Optional<String> handshakeVersion() {
        return Optional.ofNullable(connection.handshakeVersion());
    }

    // ------------------------------------------------------------------------------------------------ internals

    /**
     * Encodes a message with the core's framing ({@link JsonRpcFraming#standard()}) and decodes it back: its wire
     * form, as a peer would read it.
     *
     * @param message the message
     * @return what a peer would read
     * @throws IllegalArgumentException if the message holds something that is not plain JSON
     */
    public static JsonRpcMessage wire(JsonRpcMessage message) {
        JsonRpcFraming framing = JsonRpcFraming.standard();
        byte[] bytes = framing.encode(message);
        List<JsonRpcMessage> decoded = framing.decode(bytes, 0, bytes.length);
        if (decoded.size() != 1) {
            throw new AssertionError("one message encoded as " + decoded.size());
        }
        return decoded.get(0);
    }

    @Override
    public String toString() {
        return "ScriptedTransport[" + mode + "]";
    }
}
