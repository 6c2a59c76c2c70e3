package dev.loommcp.internal.concurrent;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared scope contract ({@link ScopeContractTest}) run against {@link RequestScope}. */
@ExtendWith(McpThreadLeakCheck.class)
class RequestScopeContractTest extends ScopeContractTest {

    @Override
    Scope open(String name, Duration timeout) {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        RequestScope scope = RequestScope.open(name, deadline, null);
        return new Scope() {
            @Override
            public <T> Child<T> fork(Callable<T> task) {
                RequestScope.Subtask<T> sub = scope.fork(task);
                return new Child<>() {
                    @Override
                    public boolean succeeded() {
                        return sub.state() == RequestScope.State.SUCCESS;
                    }

                    @Override
                    public T get() {
                        return sub.get();
                    }
                };
            }

            @Override
            public Result join() throws InterruptedException {
                return switch (scope.join()) {
                    case COMPLETED -> Result.COMPLETED;
                    case FAILED -> Result.FAILED;
                    case DEADLINE -> Result.DEADLINE;
                    case CANCELLED -> throw new AssertionError("cancelled: " + scope.cancelReason());
                };
            }

            @Override
            public boolean isCancelled() {
                return scope.isCancelled();
            }

            @Override
            public void close() {
                scope.close();
            }
        };
    }

    @Override
    boolean closeWithoutJoinThrows() {
        return false;
    }

    @Override
    boolean closeAwaitsThreadTermination() {
        return false;
    }
}
