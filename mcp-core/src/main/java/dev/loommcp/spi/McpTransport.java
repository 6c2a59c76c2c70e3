package dev.loommcp.spi;

import dev.loommcp.jsonrpc.JsonRpcMessage;

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
     * Sends one message.
     *
     * <p>A transport whose {@link #sendsInline()} is {@code true} (stdio) queues the message and returns without
     * waiting for I/O; the response arrives through the sink. Otherwise (HTTP) the call may block for the whole
     * exchange, reading the response stream and delivering what it carries to the sink; the core then runs it on a
     * virtual thread of the request's scope, and cancels it by interrupting that thread and running the actions the
     * transport registered with {@link SendContext#onCancel}.
     *
     * @param message the message, not {@code null}
     * @param context the request's deadline, cancellation hooks and identity
     * @throws dev.loommcp.McpSessionExpiredException if the peer no longer knows the session the request was sent in
     *                                                 (the transport dropped it; the core starts a new one and may
     *                                                 send the request again)
     * @throws dev.loommcp.McpTransportException if the message cannot be sent
     * @throws dev.loommcp.McpProtocolException  if the peer's answer broke the protocol
     * @throws InterruptedException              if the sending thread is interrupted
     */
    void send(JsonRpcMessage message, SendContext context) throws InterruptedException;

    /**
     * Returns whether {@link #send} only queues and never blocks on I/O. Default {@code false}.
     *
     * @return {@code true} when the core may call {@code send} on the caller's own thread
     */
    default boolean sendsInline() {
        return false;
    }

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
