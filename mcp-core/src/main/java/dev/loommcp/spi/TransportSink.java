package dev.loommcp.spi;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;

/**
 * Where a transport delivers what it reads. Implemented by the core; all methods are thread-safe, never block on
 * I/O, and return quickly (the core hands slow work to other virtual threads).
 */
public interface TransportSink {

    /**
     * Delivers one inbound message.
     *
     * @param message the message
     */
    void onMessage(JsonRpcMessage message);

    /**
     * Reports input that could not be read as JSON-RPC but that the transport skipped, keeping the connection (a
     * garbage line on stdout, a malformed SSE event). The core counts and logs it.
     *
     * @param problem what was wrong, naming where; never the whole payload
     */
    default void onSkipped(String problem) {
    }

    /**
     * Reports input that could not be read as JSON-RPC but names the id of a request it answers (a response with
     * both {@code result} and {@code error}, an error whose {@code code} is not an integer): the core fails that
     * request at once with an {@link dev.loommcp.McpProtocolException} instead of letting it wait out its deadline.
     * The transport keeps the connection, as for {@link #onSkipped}. Default: {@code onSkipped(problem)}.
     *
     * @param id      the id the malformed answer carries (see {@link JsonRpcFraming#malformedResponseId})
     * @param problem what was wrong, naming where; never the whole payload
     */
    default void onMalformedResponse(dev.loommcp.jsonrpc.RequestId id, String problem) {
        onSkipped(problem);
    }

    /**
     * Reports that a request {@link McpTransport#send} had accepted could not be sent or answered (an HTTP error
     * status, an I/O failure, a session the server no longer knows: {@link dev.loommcp.McpSessionExpiredException}).
     * The core fails that pending call with {@code cause}; a call no longer pending (cancelled, timed out) ignores
     * it. The transport stays usable. Default: nothing (the core implements it).
     *
     * @param id    the id of the request
     * @param cause what went wrong
     */
    default void onSendFailed(dev.loommcp.jsonrpc.RequestId id, dev.loommcp.McpException cause) {
    }

    /**
     * Reports that the transport is lost for good (process exit, stream failure that cannot be resumed). The core
     * fails every pending call at once with {@code cause} and closes the client. Called at most once.
     *
     * @param cause why, with the transport's details (exit code and stderr tail, HTTP status)
     */
    void onClosed(McpTransportException cause);
}
