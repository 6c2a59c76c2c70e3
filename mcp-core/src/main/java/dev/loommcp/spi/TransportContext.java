package dev.loommcp.spi;

import java.util.Objects;
import dev.loommcp.Deadline;

/**
 * Everything a transport gets when it opens ({@link McpTransport#open}): where inbound messages go, the bound of
 * opening, the JSON-RPC framing and the threads to use. With it, a transport (WebSocket, in-memory, unix socket) is
 * written against the exported packages alone. Implemented by the core; immutable and thread-safe.
 */
public interface TransportContext {

    /**
     * Returns where inbound messages, skipped input, failed sends and the loss of the transport are reported.
     *
     * @return the sink
     */
    TransportSink sink();

    /**
     * Returns the deadline by which {@link McpTransport#open} must finish.
     *
     * @return the deadline, {@link Deadline#NONE} for none
     */
    Deadline openDeadline();

    /**
     * Returns the JSON-RPC framing: encoding of outbound messages, strict decoding of inbound bytes.
     *
     * @return the framing
     */
    default JsonRpcFraming framing() {
        return JsonRpcFraming.standard();
    }

    /**
     * Returns where the transport gets its threads.
     *
     * @return the thread source
     */
    default TransportThreads threads() {
        return TransportThreads.standard();
    }

    /**
     * Returns a context like this one that delivers to {@code sink} instead: for a transport that wraps another one
     * and sees its inbound side.
     *
     * @param sink the sink the wrapped transport reports to
     * @return the context
     * @throws NullPointerException if {@code sink} is {@code null}
     */
    default TransportContext withSink(TransportSink sink) {
        return new FixedTransportContext(sink, openDeadline(), framing(), threads());
    }

    /**
     * Returns a context with the core's framing and threads, for tests of a transport and for code that drives a
     * transport without a client.
     *
     * @param sink         where inbound messages go
     * @param openDeadline the bound of opening
     * @return the context
     * @throws NullPointerException if an argument is {@code null}
     */
    static TransportContext of(TransportSink sink, Deadline openDeadline) {
        return new FixedTransportContext(sink, openDeadline, JsonRpcFraming.standard(), TransportThreads.standard());
    }
}

/** A context of fixed parts. */
record FixedTransportContext(TransportSink sink, Deadline openDeadline, JsonRpcFraming framing,
                             TransportThreads threads) implements TransportContext {
    FixedTransportContext {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(openDeadline, "openDeadline");
        Objects.requireNonNull(framing, "framing");
        Objects.requireNonNull(threads, "threads");
    }

    @Override
    public String toString() {
        return "TransportContext[" + openDeadline + "]";
    }
}
