package dev.loommcp.testing;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ScriptedTransport} was sent, for its observation methods: every message in wire form with what the
 * core passed along ({@link ScriptedTransport.SendRecord}), the messages refused after close or loss, and the stacks
 * of the sends {@link ScriptedTransport#recordStacksOf} asked for. Its condition is signalled by every send and every
 * state change of the transport, and the transport's {@code await...} methods wait on it.
 *
 * <p>Thread-safe: one {@link ReentrantLock} guards the lists; it is held for no I/O and no wait but the condition's,
 * and no test code runs under it but the {@link #await} lookup.
 */
final class SendLog {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<JsonRpcMessage> sent = new ArrayList<>();
    private final List<JsonRpcMessage> rejected = new ArrayList<>();
    private final List<ScriptedTransport.SendRecord> records = new ArrayList<>();
    private final List<List<String>> sendStacks = new CopyOnWriteArrayList<>();
    private volatile @Nullable String stacksOf;
    private volatile Duration awaitTimeout = Duration.ofSeconds(10);

    /** Records the stacks of the sends of requests of {@code method} from now on. */
    void recordStacksOf(String method) {
        stacksOf = method;
    }

    /** The stacks recorded, in send order. */
    List<List<String>> sendStacks() {
        return List.copyOf(sendStacks);
    }

    /**
     * At the send of a request whose stacks are recorded: the frames of the sending thread above the transport's
     * {@code send} (innermost first, as {@code SimpleClassName.method}). Called by {@code send} itself, so the frames
     * of this method and of {@code send} are left out.
     */
    void stackOfSend(JsonRpcMessage message) {
        if (message instanceof JsonRpcMessage.Request r && r.method().equals(stacksOf)) {
            sendStacks.add(StackWalker.getInstance().walk(frames -> frames.skip(2)
                    .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                            + f.getMethodName()).toList()));
        }
    }

    /** Sets the bound of {@link #await}; positive. */
    void awaitTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("await timeout must be positive: " + timeout);
        }
        this.awaitTimeout = timeout;
    }

    /** Records a sent message (wire form) with what the core passed along, and wakes the waiters. */
    void record(JsonRpcMessage wire, SendContext context) {
        lock.lock();
        try {
            sent.add(wire);
            records.add(new ScriptedTransport.SendRecord(wire, context.requestId(), context.deadline().nanoTime(),
                    Thread.currentThread().getName(), context.routing()));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Records a message refused after close or loss, and wakes the waiters. */
    void reject(JsonRpcMessage wire) {
        lock.lock();
        try {
            rejected.add(wire);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes the waiters: the transport's state changed. */
    void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The sent messages, a snapshot. */
    List<JsonRpcMessage> sent() {
        return snapshot(sent);
    }

    /** The send records, a snapshot. */
    List<ScriptedTransport.SendRecord> records() {
        return snapshot(records);
    }

    /** The refused messages, a snapshot. */
    List<JsonRpcMessage> rejected() {
        return snapshot(rejected);
    }

    private <T> List<T> snapshot(List<T> list) {
        lock.lock();
        try {
            return List.copyOf(list);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits, under the lock and on its condition, until {@code found} (given the sent messages so far) gives a value,
     * for at most the await timeout.
     *
     * @throws AssertionError naming {@code what} and the messages sent, when the timeout passes or the thread is
     *                        interrupted (its interrupt status set again)
     */
    <T> T await(String what, Function<List<JsonRpcMessage>, @Nullable T> found) {
        long end = System.nanoTime() + awaitTimeout.toNanos();
        lock.lock();
        try {
            while (true) {
                T value = found.apply(sent);
                if (value != null) {
                    return value;
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out waiting for " + what + "; sent: " + describe(sent));
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        } finally {
            lock.unlock();
        }
    }

    private static String describe(List<JsonRpcMessage> messages) {
        return messages.stream().map(m -> switch (m) {
            case JsonRpcMessage.Request r -> r.method() + "#" + r.id();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> "response#" + r.id();
            case JsonRpcMessage.ErrorResponse e -> "error#" + e.id();
        }).collect(Collectors.joining(", ", "[", "]"));
    }
}
