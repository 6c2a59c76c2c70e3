package dev.loommcp.internal.session;

import dev.loommcp.McpClosedException;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.scope.RequestScope;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.scope.ScopeThreads;
import dev.loommcp.internal.session.inbound.InboundDispatcher;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The life of one client: its state machine ({@code NEW → CONNECTING → CONNECTED → CLOSED}, moved under one
 * {@link ReentrantLock}), what ended it (the close cause), the {@link CloseGate} that coordinates its release, and its
 * scope tree: the client's root scope, the transport's connection-wide threads under it, and the client's own
 * threads (event loop, deadline watch, handlers outside a request, subscriptions, async calls), under which every
 * request's scope opens unless the calling thread is in a scope already. It also serves as the identity of the
 * client's {@link RequestScope}s. The parts of the engine that need to know whether the client is open, to start a
 * client thread or to say that it closed get this, not the session. Thread-safe.
 */
final class ClientLife {

    private enum State { NEW, CONNECTING, CONNECTED, CLOSED }

    private final ReentrantLock stateLock = new ReentrantLock();
    private volatile State state = State.NEW;
    private volatile Throwable closeCause;
    /** The release's coordination: close actions, and a second close waiting for the first. */
    private final CloseGate closeGate = new CloseGate();
    /**
     * The root of the client's scope tree: {@link #transportScope} (the transport's connection-wide threads) and
     * {@link #work} (event loop, deadline watch, server-request handlers outside a request, subscriptions, async
     * calls) under it, and every request's scope under {@link #work} unless the calling thread is in a scope already
     * (a handler or listener of another request, a user's fan-out scope), whose child it then is.
     */
    private final Scope<Object, Void> clientScope;
    /** The scope of the transport's connection-wide threads: cancelled after the transport closed. */
    private final Scope<Object, Void> transportScope;
    /** The scope of the client's own threads: cancelled first at release. */
    private final Scope<Object, Void> work;

    /**
     * Opens the client's scopes (nothing runs in them yet).
     *
     * @param describe the transport's description, in the root scope's name
     */
    ClientLife(String describe) {
        this.clientScope = Scope.openUnconfined("mcp client of " + describe);
        this.transportScope = Scope.openUnconfined("transport", clientScope);
        this.work = Scope.openUnconfined("the client of " + describe, clientScope);
    }

    // ------------------------------------------------------------------------------------------------ state

    /**
     * Moves {@code NEW → CONNECTING}.
     *
     * @throws McpClosedException    if the client is closed
     * @throws IllegalStateException if connect was already called
     */
    void beginConnect() {
        stateLock.lock();
        try {
            switch (state) {
                case NEW -> state = State.CONNECTING;
                case CLOSED -> throw closedException("connect");
                default -> throw new IllegalStateException("connect() was already called (client is " + state + ")");
            }
        } finally {
            stateLock.unlock();
        }
    }

    /** Whether connect is still under way (a close did not come first). */
    boolean isConnecting() {
        return state == State.CONNECTING;
    }

    /**
     * Moves {@code CONNECTING → CONNECTED}, running {@code whileLocked} (what the connection learned) before the
     * state changes, under the state lock: a call that sees the client connected sees it too.
     *
     * @throws McpClosedException if the client closed meanwhile
     */
    void markConnected(Runnable whileLocked) {
        stateLock.lock();
        try {
            if (state != State.CONNECTING) {
                throw closedException("connect");
            }
            whileLocked.run();
            state = State.CONNECTED;
        } finally {
            stateLock.unlock();
        }
    }

    /** Returns whether the client is closed. */
    boolean isClosed() {
        return state == State.CLOSED;
    }

    /** Returns whether the handshake completed and the client is not closed. */
    boolean isConnected() {
        return state == State.CONNECTED;
    }

    /** Whether a request of the handshake (or of a renewal) may go out: the client is connecting or connected. */
    boolean isOpen() {
        State s = state;
        return s == State.CONNECTING || s == State.CONNECTED;
    }

    /** Returns what ended the client (the transport's failure), or {@code null} while open or after close(). */
    Throwable closeCause() {
        return closeCause;
    }

    /**
     * Throws unless the client is connected.
     *
     * @throws McpClosedException    if it is closed
     * @throws IllegalStateException if connect has not completed
     */
    void ensureConnected(String method) {
        State s = state;
        if (s == State.CONNECTED) {
            return;
        }
        if (s == State.CLOSED) {
            throw closedException(method);
        }
        throw new IllegalStateException(method + ": the client is not connected; call connect() first");
    }

    /**
     * Whether {@code close()} closed the client (not a failed connect or the loss of the transport, whose own
     * exception tells more). A transport closed under a running call or connect may throw anything; the caller then
     * gets {@link McpClosedException}.
     */
    boolean closedByOwner() {
        return state == State.CLOSED && closeCause == null; // closeCause is final once the state is CLOSED
    }

    /** The exception for a call that failed because {@code close()} closed the client under it. */
    static McpClosedException closedInstead(String method, RuntimeException transportFailure) {
        if (transportFailure instanceof McpClosedException c) {
            return c;
        }
        McpClosedException e = new McpClosedException(method + " failed: the client was closed", null);
        e.addSuppressed(transportFailure);
        return e;
    }

    /** The exception for {@code method} refused because the client is closed, with the close cause. */
    McpClosedException closedException(String method) {
        Throwable cause = closeCause;
        return new McpClosedException(method + " refused: the client is closed"
                + (cause == null ? "" : " (" + cause.getMessage() + ")"), cause);
    }

    /** Moves the client to CLOSED; returns whether this call did it (exactly one caller gets {@code true}). */
    boolean markClosed(Throwable cause) {
        stateLock.lock();
        try {
            if (state == State.CLOSED) {
                return false;
            }
            closeCause = cause; // before the state: closedByOwner() reads them without the lock
            state = State.CLOSED;
            return true;
        } finally {
            stateLock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------ close

    /**
     * Closes the client with {@code cause} ({@code null}: closed by its owner): the caller that marks it closed runs
     * {@code release} through the {@link CloseGate}; any other waits until that release is over, unless it runs the
     * release itself or is one of the client's own threads (which the release waits for).
     */
    void close(Throwable cause, Runnable release) {
        if (markClosed(cause)) {
            release(release);
        } else if (!closeGate.isReleasing(Thread.currentThread()) && !ScopeThreads.inTree(clientScope)) {
            closeGate.awaitReleased(); // every close returns with the client released, not only the first
        }
    }

    /** Runs the release of a client just marked closed through the {@link CloseGate}: its close actions first. */
    void release(Runnable release) {
        closeGate.release(release);
    }

    /** Runs {@code action} once when the client closes: {@link CloseGate#whenClosed}. */
    Runnable whenClosed(Runnable action) {
        return closeGate.whenClosed(action, this::isClosed);
    }

    // ------------------------------------------------------------------------------------------------ scopes

    /**
     * The scope of the transport's connection-wide threads, which also owns the client's one-way sends
     * ({@code notifications/cancelled}, {@code notify}): it is cancelled only after the transport closed, and the
     * transport's close lets queued one-way sends out.
     */
    Scope<Object, Void> transportThreads() {
        return transportScope;
    }

    /** The scope of the client's own threads, under which its requests' scopes open. */
    Scope<Object, Void> work() {
        return work;
    }

    /**
     * Runs a task on a client thread (a fork of the client's own scope: cancelled and awaited by the release), unless
     * the client has closed; the {@code closer} (the release after a transport failure) runs on a plain thread,
     * outside the tree it closes.
     *
     * @return the started thread, or {@code null} when the client had closed (nothing runs)
     */
    Thread startBackground(String purpose, Runnable task) {
        if (purpose.equals("closer")) {
            return McpThreads.start(purpose, task);
        }
        if (state == State.CLOSED) {
            return null;
        }
        try {
            return work.start(purpose, task, false);
        } catch (IllegalStateException closed) {
            return null; // released meanwhile
        }
    }

    /**
     * Starts a server request's handler in the scope of this client's request the calling (delivering) thread works
     * for, if any and still running, else as a client thread: {@link InboundDispatcher.Host#fork}.
     */
    Thread forkForServerRequest(String purpose, Runnable task) {
        Scope<?, ?> request = RequestScope.currentOf(this);
        if (request != null && !request.isCancelled()) {
            try {
                Thread t = request.start(purpose, task, false);
                if (t != null) {
                    return t;
                }
            } catch (IllegalStateException ended) {
                // the request ended meanwhile: the handler runs as the client's
            }
        }
        return startBackground(purpose, task);
    }

    /** The context the transport is opened with: the sink, the deadline, and the client's transport threads. */
    TransportContext transportContext(TransportSink sink, Deadline deadline) {
        return new ScopedThreads.Context(sink, deadline, new ScopedThreads(transportScope));
    }

    /** Cancels the client's own threads and requests, first step of the release: {@link SessionRelease}. */
    void cancelWork() {
        work.cancel();
    }

    /**
     * Cancels what is left of the client's tree (the transport's threads, after the transport closed) and waits for
     * every thread under it, the calling thread excepted, until {@code deadline}.
     *
     * @return whether every thread ended in time
     */
    boolean closeScopes(Deadline deadline) {
        return clientScope.closeWithin(deadline);
    }

    @Override
    public String toString() {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
