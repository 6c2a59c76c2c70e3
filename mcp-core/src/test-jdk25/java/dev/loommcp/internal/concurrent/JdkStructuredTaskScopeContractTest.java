package dev.loommcp.internal.concurrent;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * The shared scope contract ({@link ScopeContractTest}) run against the JDK's own {@link StructuredTaskScope}
 * (JEP 505, a preview API in JDK 25). This source set alone is compiled with {@code --release 25 --enable-preview}
 * and run in its own surefire execution, only when the build JDK is 25 or newer (profile {@code jdk25-scope-contract}
 * of mcp-core's pom); the library and every other test stay on {@code --release 21} without preview features.
 *
 * <p>The scope is opened with {@link Joiner#awaitAllSuccessfulOrThrow()}, the joiner whose policy matches
 * {@link RequestScope} (all must succeed; the first failure cancels the rest), and the timeout as the deadline.
 */
class JdkStructuredTaskScopeContractTest extends ScopeContractTest {

    @Override
    Scope open(String name, Duration timeout) {
        StructuredTaskScope<Object, Void> scope = StructuredTaskScope.open(Joiner.awaitAllSuccessfulOrThrow(),
                cf -> timeout == null ? cf.withName(name) : cf.withName(name).withTimeout(timeout));
        return new Scope() {
            @Override
            public <T> Child<T> fork(Callable<T> task) {
                Subtask<T> sub = scope.fork(task);
                return new Child<>() {
                    @Override
                    public boolean succeeded() {
                        return sub.state() == Subtask.State.SUCCESS;
                    }

                    @Override
                    public T get() {
                        return sub.get();
                    }
                };
            }

            @Override
            public Result join() throws InterruptedException {
                try {
                    scope.join();
                    return Result.COMPLETED;
                } catch (StructuredTaskScope.FailedException e) {
                    return Result.FAILED;
                } catch (StructuredTaskScope.TimeoutException e) {
                    return Result.DEADLINE;
                }
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
        return true;
    }

    @Override
    boolean closeAwaitsThreadTermination() {
        return true;
    }
}
