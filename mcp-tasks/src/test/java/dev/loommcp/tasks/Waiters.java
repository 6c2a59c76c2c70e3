package dev.loommcp.tasks;

import static org.awaitility.Awaitility.await;

import dev.loommcp.RequestOptions;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** Runs {@link McpTask#await} on its own thread, disturbs it once it is waiting, and returns what it threw. */
final class Waiters {

    private Waiters() {
    }

    /**
     * @param task    the task to wait for
     * @param options the wait's options
     * @param waiting true once the wait is under way (bounded to 10 s)
     * @param disturb what to do then, given the waiting thread
     * @return what the wait threw, or {@code null}
     */
    static Throwable thrownWhen(McpTask task, RequestOptions options, Callable<Boolean> waiting,
                                Consumer<Thread> disturb) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                task.await(options);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(waiting);
        disturb.accept(waiter);
        if (!waiter.join(Duration.ofSeconds(10))) {
            throw new AssertionError("the wait did not end");
        }
        return thrown.get();
    }
}
