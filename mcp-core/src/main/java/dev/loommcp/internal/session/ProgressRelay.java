package dev.loommcp.internal.session;

import dev.loommcp.event.ProgressListener;
import dev.loommcp.internal.concurrent.BoundedQueue;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.schema.ProgressNotification;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Carries one call's {@code notifications/progress} from the reader to the calling thread, which runs the call's
 * {@link ProgressListener} while it waits for the answer (MCP "Progress"). The reader queues a notification before it
 * hands over the response that follows it, and the answer closes the queue: so every notification the server sent
 * before its response reaches the listener before the call returns, and none reaches it afterwards.
 *
 * <p>The queue has the client's listener-queue bounds (entries and bytes, dropping the oldest; drops are counted
 * with the listener queue's). Thread-safe: one reader offers, the calling thread waits.
 */
public final class ProgressRelay {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");
    private static final Object ANSWERED = new Object();

    private final ProgressListener listener;
    private final BoundedQueue<Object> inbox;

    /**
     * Creates the relay of one call; the answer's completion closes it.
     *
     * @param listener   the call's listener
     * @param answer     the call's future
     * @param maxEntries the most queued notifications
     * @param maxBytes   the most queued bytes
     * @param drops      counts dropped notifications
     */
    public ProgressRelay(ProgressListener listener, CompletableFuture<?> answer, int maxEntries, long maxBytes,
                  AtomicLong drops) {
        this.listener = listener;
        this.inbox = new BoundedQueue<>(maxEntries, maxBytes, drops);
        answer.whenComplete((result, failure) -> inbox.close(ANSWERED));
    }

    /**
     * Queues a notification for the listener (the reader's side).
     *
     * @param progress the notification
     * @param bytes    its size
     * @return whether it was queued ({@code false} once the call was answered, failed or ended)
     */
    public boolean offer(ProgressNotification progress, long bytes) {
        return inbox.offer(progress, bytes) >= 0;
    }

    /**
     * Runs the listener for each queued notification until the answer arrives, then returns it (the calling
     * thread's side). The wait ends at {@code nanos} even while notifications keep coming (the time is checked before
     * each one: a call overruns it by at most one run of the listener); once the answer is in, the notifications
     * queued before it are all delivered whatever the time.
     *
     * @param answer the call's future
     * @param nanos  how long to wait for the answer, {@link Long#MAX_VALUE} for ever
     * @param <T>    the answer type
     * @return the answer
     * @throws ExecutionException   if the answer is a failure
     * @throws TimeoutException     if no answer came within {@code nanos}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public <T> T await(CompletableFuture<T> answer, long nanos) throws ExecutionException, TimeoutException,
            InterruptedException {
        long end = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + nanos;
        while (true) {
            Object item;
            if (end == Long.MAX_VALUE) {
                item = inbox.take();
            } else {
                long left = end - System.nanoTime();
                if (left <= 0 && !answer.isDone()) {
                    // checked before each notification, not only when the queue runs dry: a server that sends
                    // progress faster than the listener takes it must not hold the call past its deadline
                    throw new TimeoutException();
                }
                item = inbox.poll(Math.max(left, 0), TimeUnit.NANOSECONDS);
                if (item == null) {
                    if (!answer.isDone()) {
                        throw new TimeoutException();
                    }
                    item = inbox.take(); // the answer is in: its marker is queued at once, after what came before
                }
            }
            if (item == ANSWERED) {
                return answer.get(); // the queue stays closed: nothing is held for a call that returned
            }
            deliver((ProgressNotification) item);
        }
    }

    /** Ends the relay when the call leaves without its answer (timeout, cancellation): nothing more is queued. */
    public void close() {
        inbox.close(ANSWERED);
        inbox.drain();
    }

    private void deliver(ProgressNotification progress) {
        // a listener's failure, even an Error, must not fail the call it observes
        UserCode.run(LOG, "a progress listener", () -> listener.onProgress(progress));
    }
}
