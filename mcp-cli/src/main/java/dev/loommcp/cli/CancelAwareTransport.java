package dev.loommcp.cli;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wraps the command's transport so that the command can wait, bounded, for a {@code notifications/cancelled} to be
 * sent before it closes the client. When a call ends early (Ctrl+C, {@code --timeout}) the client sends the
 * cancellation from a background thread on transports that do not send inline (HTTP); closing the client at once
 * would abort that send, and the server would never learn that the call was abandoned. Everything else is passed
 * through unchanged.
 *
 * <p>Thread-safe.
 */
final class CancelAwareTransport implements McpTransport {

    /** How long a command waits for the cancellation to go out: the client bounds that send to 5 s. */
    static final Duration CANCEL_BOUND = Duration.ofSeconds(5);

    private final McpTransport delegate;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition settled = lock.newCondition();
    private int cancelsDone;

    /**
     * Wraps a transport.
     *
     * @param delegate the transport that does the work
     */
    CancelAwareTransport(McpTransport delegate) {
        this.delegate = delegate;
    }

    @Override
    public void open(TransportSink sink, long deadlineNanos) throws InterruptedException {
        delegate.open(sink, deadlineNanos);
    }

    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        boolean cancel = message instanceof JsonRpcMessage.Notification n && n.method().equals("notifications/cancelled");
        try {
            delegate.send(message, context);
        } finally {
            if (cancel) {
                lock.lock();
                try {
                    cancelsDone++;
                    settled.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    @Override
    public boolean sendsInline() {
        return delegate.sendsInline();
    }

    @Override
    public void handshakeCompleted(String protocolVersion) {
        delegate.handshakeCompleted(protocolVersion);
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /**
     * Waits until a {@code notifications/cancelled} has been sent (or failed to be sent), at most {@code bound}.
     * Returns at once for a transport that sends inline: the client then sent it before the call ended.
     *
     * @param bound the most to wait
     * @return whether one was sent within the bound
     * @throws InterruptedException if the waiting thread is interrupted
     */
    boolean awaitCancelSent(Duration bound) throws InterruptedException {
        if (delegate.sendsInline()) {
            return true;
        }
        long left = bound.toNanos();
        lock.lock();
        try {
            while (cancelsDone == 0) {
                if (left <= 0) {
                    return false;
                }
                left = settled.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
