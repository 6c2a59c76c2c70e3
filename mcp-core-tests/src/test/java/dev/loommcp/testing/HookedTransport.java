package dev.loommcp.testing;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScriptedTransport} with test hooks in front of {@link #open} and {@link #send}: what a real transport does
 * when {@code close()} runs while it opens or sends (it fails with whatever it fails with), or a transport whose own
 * code misbehaves. Thread-safe.
 */
public final class HookedTransport implements McpTransport {

    /** What runs before the scripted transport's own method. */
    @FunctionalInterface
    public interface Hook {
        /**
         * Runs before the delegate.
         *
         * @param message the message being sent, or {@code null} for {@code open}
         * @param context its send context, or {@code null} for {@code open}
         * @throws InterruptedException if interrupted
         */
        void run(JsonRpcMessage message, SendContext context) throws InterruptedException;
    }

    private final ScriptedTransport delegate;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Hook beforeOpen = (m, c) -> { };
    private volatile Hook beforeSend = (m, c) -> { };

    /**
     * Wraps a scripted transport.
     *
     * @param delegate the transport that does the work
     */
    public HookedTransport(ScriptedTransport delegate) {
        this.delegate = delegate;
    }

    /**
     * Returns the scripted transport.
     *
     * @return the delegate
     */
    public ScriptedTransport server() {
        return delegate;
    }

    /**
     * Sets what runs at the start of {@link #open}.
     *
     * @param hook the hook
     * @return this
     */
    public HookedTransport beforeOpen(Hook hook) {
        this.beforeOpen = hook;
        return this;
    }

    /**
     * Sets what runs at the start of every {@link #send}.
     *
     * @param hook the hook
     * @return this
     */
    public HookedTransport beforeSend(Hook hook) {
        this.beforeSend = hook;
        return this;
    }

    /**
     * Blocks (at most {@link Await#DEFAULT}) until {@link #close()} was called.
     *
     * @throws InterruptedException if interrupted
     * @throws AssertionError       if close is not called in time
     */
    public void awaitClose() throws InterruptedException {
        if (!closed.await(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the transport was not closed within " + Await.DEFAULT);
        }
    }

    @Override
    public void open(TransportContext context) throws InterruptedException {
        beforeOpen.run(null, null);
        delegate.open(context);
    }

    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        beforeSend.run(message, context);
        delegate.send(message, context);
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
        closed.countDown();
        delegate.close();
    }
}
