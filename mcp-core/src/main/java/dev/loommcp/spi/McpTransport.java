package dev.loommcp.spi;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.McpClient;
import org.jspecify.annotations.Nullable;

/**
 * A way to exchange JSON-RPC messages with one MCP server: the transport SPI (DESIGN.md section 4).
 *
 * <p>Users build a transport (for example {@code StdioTransport.newBuilder(...).build()}) and hand it to
 * {@code McpClient.newBuilder(transport)}; only the client calls the methods here. A transport instance is used by
 * one client, once: {@link #open} is called at most once, then {@link #send} any number of times from many threads,
 * then {@link #close()}.
 *
 * <p>The core owns ids, correlation, deadlines, cancellation and the protocol; a transport owns the bytes and its
 * own resources (process, connections, reader threads). Inbound messages go to the {@link TransportSink} of the
 * {@link TransportContext} given to {@link #open}, from any thread, in the order they were read from each stream.
 */
public interface McpTransport extends AutoCloseable {

    /**
     * Starts the transport: launches the process or prepares the HTTP client. Inbound messages and the loss of the
     * transport are reported to the context's {@linkplain TransportContext#sink() sink} from then on; the
     * transport encodes and decodes with the context's {@linkplain TransportContext#framing() framing} and takes its
     * threads from the context's {@linkplain TransportContext#threads() threads}.
     *
     * @param context the sink, the deadline by which opening must finish, the framing and the threads; not
     *                {@code null}
     * @throws dev.loommcp.McpTransportException if the transport cannot start (naming what was wrong)
     * @throws InterruptedException              if the calling thread is interrupted
     */
    void open(TransportContext context) throws InterruptedException;

    /**
     * Sends one message: queues it and returns without waiting for the peer.
     *
     * <p>A transport whose medium needs a blocking exchange (HTTP) runs it on its own thread (from
     * {@link TransportContext#threads()}), aborts it through the actions it registers with
     * {@link SendContext#onCancel}, and delivers what the exchange reads to the sink. A failure that happens after
     * {@code send} returned is reported through {@link TransportSink#onSendFailed} when the message is a request
     * (the core fails that call with it); for a notification or response it is logged and dropped. The one
     * exception: when {@link SendContext#awaitDelivery()} is {@code true} (a notification the core sends on a
     * caller's behalf, {@code notifications/initialized}), {@code send} returns only once the message was delivered
     * (HTTP: its POST was accepted), bounded by the context's deadline, and throws what went wrong; a transport whose
     * stream keeps the order of sends (stdio) may return once the message is queued ahead of every later send.
     * Messages whose sends returned are delivered in the order of those returns where the medium keeps an order.
     *
     * @param message the message, not {@code null}
     * @param context the request's deadline, cancellation hooks and identity
     * @throws dev.loommcp.McpTransportException if the message cannot be queued (the transport is closed or lost),
     *                                           or, with {@code awaitDelivery()}, was not delivered
     * @throws dev.loommcp.McpTimeoutException   with {@code awaitDelivery()}, if the deadline passed first
     * @throws IllegalArgumentException          if the message cannot be encoded (params that are not plain JSON)
     * @throws InterruptedException              if the sending thread is interrupted
     */
    void send(JsonRpcMessage message, SendContext context) throws InterruptedException;

    /**
     * Called by the core once the server's {@code initialize} answer passed the core's checks, with the negotiated
     * protocol version, just before it sends {@code notifications/initialized} (which therefore carries the version
     * already). Called again for each new session the core starts after a {@link dev.loommcp.McpSessionExpiredException}.
     * HTTP transports start sending {@code MCP-Protocol-Version} and open (or reopen) their optional GET stream here.
     * Must not block for long. Default: nothing.
     *
     * @param protocolVersion the negotiated version, for example {@code 2025-11-25}
     */
    default void handshakeCompleted(String protocolVersion) {
    }

    /**
     * Returns a new, unopened transport to the same server for one throw-away era probe ({@code ProtocolMode.AUTO}),
     * or empty when the probe should run on this transport. Consulted only when {@link #reopenable()} is
     * {@code false}: the core then opens it, sends one {@code server/discover}, closes it and waits for that close
     * to finish before it opens this transport, so the two never run at the same time (a server that allows one
     * instance would refuse the second). The probe's process or connection never carries the session. Default
     * empty.
     *
     * @return the probe transport, or empty
     */
    default java.util.Optional<McpTransport> probeTransport() {
        return java.util.Optional.empty();
    }

    /**
     * Returns whether {@link #reopen(TransportContext)} can replace this transport's connection with a fresh one
     * (stdio: a new process of the same command line). The core's {@code ProtocolMode.AUTO} then sends its
     * {@code server/discover} probe on the connection itself (MCP 2026-07-28 "stdio: backward compatibility": a
     * legacy server answers it with an error and takes {@code initialize} on the same process) and reopens only
     * when the probe ended the connection (the server exited, or its output became unusable). Default
     * {@code false}.
     *
     * @return whether {@link #reopen(TransportContext)} is supported
     */
    default boolean reopenable() {
        return false;
    }

    /**
     * Ends this opened transport's connection, waits until it is gone (stdio: the process tree exited and was
     * reaped, with the same bounded shutdown as {@link #close()}), then opens a fresh one with the same settings and
     * {@code context}, as {@link #open(TransportContext)} does. Nothing of the old connection reaches the sink after
     * this returns. Called by the core at most once per connect, only when {@link #reopenable()} is {@code true},
     * on the connecting thread.
     *
     * @param context the sink and open deadline for the new connection
     * @throws dev.loommcp.McpTransportException if the new connection cannot be opened
     * @throws dev.loommcp.McpClosedException    if {@link #close()} was called before or while this ran
     * @throws UnsupportedOperationException     if {@link #reopenable()} is {@code false} (the default)
     * @throws InterruptedException              if the calling thread is interrupted while it waits
     */
    default void reopen(TransportContext context) throws InterruptedException {
        throw new UnsupportedOperationException("this transport cannot reopen its connection");
    }

    /**
     * Returns a key naming the server for the core's cache of era verdicts: the same key for two transports means
     * the same server, so it must name everything that tells two servers apart (stdio: the command line, working
     * directory and environment; HTTP: the endpoint's scheme, host, port, path and query). It is never logged and
     * should not carry secrets in clear (a task store may keep it on disk: digest what may be secret). It is kept in
     * memory, and only as a SHA-256 digest in the file of {@code McpClient.Builder.eraVerdictCache} when the client has
     * one. Default empty: no caching.
     *
     * @return the key; empty when the transport does not name its server
     */
    default java.util.Optional<String> serverKey() {
        return java.util.Optional.empty();
    }

    /**
     * Returns whether each request travels in an exchange of its own (HTTP: one POST with its response stream). In
     * the modern era the core then cancels a request only by aborting its exchange (MCP 2026-07-28 "Streamable HTTP:
     * cancellation"; no {@code notifications/cancelled}), and computes {@code Mcp-Param-*} routing from the tools'
     * {@code x-mcp-header} annotations, dropping tools whose annotations are invalid. Default {@code false} (one
     * stream for everything, as stdio).
     *
     * @return {@code true} for a transport with one exchange per request
     */
    default boolean exchangePerRequest() {
        return false;
    }

    /**
     * Returns what kind of wire this transport speaks and where its server is, for interceptors and telemetry
     * ({@code McpInterceptor.Chain.connection()}). Default {@link TransportInfo#other()}. Must be cheap and must not
     * block: it may be read on every call.
     *
     * @return the info, never {@code null}
     */
    default TransportInfo info() {
        return TransportInfo.other();
    }

    /**
     * Returns the session id the server assigned to this connection, where the wire has one: the legacy Streamable
     * HTTP {@code Mcp-Session-Id} (MCP 2025-11-25 "Session Management"). Default empty: no session (stdio, the 2026
     * era, which has no sessions). Must be cheap and must not block.
     *
     * @return the session id, or empty
     */
    default java.util.Optional<String> sessionId() {
        return java.util.Optional.empty();
    }

    /**
     * Returns a short description for messages and logs: the program name or the endpoint's origin. It never holds
     * environment values, header values, query strings or credentials.
     *
     * @return the description
     */
    String describe();

    /**
     * Closes the transport and releases everything it owns (process tree, connections, threads), each step bounded.
     * Idempotent, safe from any thread, and returns within the transport's documented shutdown bound. After close
     * the sink gets no more messages.
     */
    @Override
    void close();
}
