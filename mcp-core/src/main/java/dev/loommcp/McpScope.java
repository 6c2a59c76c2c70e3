package dev.loommcp;

import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.scope.ScopeThreads;
import dev.loommcp.internal.scope.ScopeCancelledException;
import dev.loommcp.internal.scope.ScopeTimeoutException;
import dev.loommcp.internal.scope.ScopeFailedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A scope for a group of concurrent calls: fork each call, {@linkplain #join() join} them within one deadline, and
 * {@linkplain #close() close} the scope, which cancels what is still running (MCP calls on the wire too) and returns
 * only when every fork has ended. Calls may go to any number of clients, or to the servers of one
 * {@code McpServers} host. Shaped like the JDK 25 {@link java.util.concurrent.StructuredTaskScope} API (a preview API
 * up to Java 25, which loom-mcp does not use), so that code written against it moves to {@code StructuredTaskScope}
 * once that is final, by changing the class name (see <b>Moving to StructuredTaskScope</b> below).
 *
 * <pre>{@code
 * // five tools on three servers, in parallel, with one deadline of 10 seconds for all of them
 * try (var scope = McpScope.open(McpScope.Joiner.<CallToolResult>allSuccessfulOrThrow(),
 *         cf -> cf.withName("research").withTimeout(Duration.ofSeconds(10)))) {
 *     var docs    = scope.fork(() -> search.callTool("search_docs", Map.of("q", question)));
 *     var issues  = scope.fork(() -> search.callTool("search_issues", Map.of("q", question)));
 *     var schema  = scope.fork(() -> database.callTool("describe", Map.of("table", "orders")));
 *     var rows    = scope.fork(() -> database.callTool("query", Map.of("sql", sql)));
 *     var weather = scope.fork(() -> weatherServer.callTool("forecast", Map.of("city", "Oslo")));
 *     scope.join();   // throws McpScope.FailedException with the first failure; the other calls are cancelled
 *     answer(docs.get(), issues.get(), schema.get(), rows.get(), weather.get());
 * }
 * }</pre>
 *
 * <p><b>Threads and confinement.</b> The thread that opens the scope is its owner: only the owner forks, joins and
 * closes it ({@link WrongThreadException} otherwise), and scopes opened on one thread close in the reverse order
 * (use try-with-resources). Each fork runs on a new virtual thread named {@code mcp-<name>-<n>}, {@code <name>}
 * being the {@linkplain Configuration#withName name} of the scope ({@code fanout} by default); the JDK's JSON
 * thread dump ({@code jcmd <pid> Thread.dump_to_file -format=json <file>}) lists them together.
 *
 * <p><b>Deadline and cancellation of the calls.</b> The scope's deadline is its
 * {@linkplain Configuration#withTimeout timeout} from {@code open}, never later than the deadline of the request the
 * owner runs in (when a scope is opened inside an elicitation, sampling or roots handler, or a listener of a
 * request, it is part of that request). An MCP call made in a fork, on any client, is part of the scope: its
 * deadline is the earlier of its own and the scope's, and when the scope is cancelled (the joiner's decision, the
 * deadline passing in {@code join}, the owner interrupted in {@code join}, {@code close}, or the enclosing request
 * ending) the call is cancelled on the wire ({@code notifications/cancelled}, or the closing of its HTTP stream) and
 * the fork's thread is interrupted. Work other than MCP calls sees the interrupt.
 *
 * <p><b>Exceptions.</b> {@link FailedException} and {@link TimeoutException} are this class's own, nested and
 * unchecked like the JDK's, rather than kinds of {@link McpException}: a fork may run any code, not only MCP calls;
 * {@code McpException} is sealed over the ways one MCP operation fails so that callers can switch over them
 * exhaustively, and the outcome of a group is not one of those; and with the same names, moving to
 * {@code StructuredTaskScope} needs no change of {@code catch} clauses. The failure of an MCP call in a fork keeps
 * its own kind as the {@linkplain Throwable#getCause() cause} of {@code FailedException}
 * ({@link McpTimeoutException} when the call's own deadline passed first, {@link McpRpcException} for a server's
 * error, and so on). The one {@code McpException} that {@code join} throws itself is {@link McpCancelledException},
 * when the scope was cancelled from outside while it waited: the request the scope is part of was cancelled (a case
 * the JDK's scope does not have).
 *
 * <p><b>Moving to StructuredTaskScope.</b> {@code McpScope.open(joiner, cf -> cf.withName(n).withTimeout(t))},
 * {@code fork(Callable)}, {@code fork(Runnable)}, {@code join()}, {@code isCancelled()}, {@code close()},
 * {@code Subtask} ({@code state()}, {@code get()}, {@code exception()}), the four {@code Joiner} factories and the
 * two exceptions have the names, types and rules of their JDK 25 counterparts; replacing {@code McpScope} with
 * {@code StructuredTaskScope} is the whole change, except: the JDK's {@code Joiner} is an interface that code may
 * implement (here only the four factories exist), its configuration also takes a thread factory (here threads are
 * loom-mcp's own), and the JDK throws {@code StructureViolationException} where this class throws
 * {@link IllegalStateException}. MCP calls keep inheriting the deadline and cancellation of the enclosing scope once
 * loom-mcp runs on a final {@code StructuredTaskScope}. JDK 26 renames {@code anySuccessfulResultOrThrow} to
 * {@code anySuccessfulOrThrow} and makes {@code allSuccessfulOrThrow} return a list of results.
 *
 * <p>Thread-safe where stated: {@link #isCancelled()} and the {@link Subtask} methods from any thread; everything
 * else from the owner only.
 *
 * @param <T> the result type of the forks
 * @param <R> the result type of {@link #join()}
 */
public final class McpScope<T, R> implements AutoCloseable {

    private final Scope<Object, ?> scope;
    private final Joiner<? super T, ? extends R> joiner;
    private final Thread owner = Thread.currentThread();
    private final String purpose;
    private final List<Fork<?>> forks = new ArrayList<>(); // owner only
    private volatile boolean joined;

    private McpScope(Joiner<? super T, ? extends R> joiner, Configuration config) {
        this.joiner = joiner;
        this.purpose = config.name == null ? "fanout" : config.name;
        Deadline deadline = config.timeout == null ? Deadline.NONE : Deadline.after(config.timeout);
        this.scope = Scope.open(purpose, joiner.policy.get(), deadline);
    }

    /**
     * Opens a scope whose {@link #join()} waits for every fork to succeed, throwing the first failure (the
     * {@link Joiner#awaitAllSuccessfulOrThrow()} joiner), with no timeout of its own.
     *
     * @param <T> the result type of the forks
     * @return the open scope, owned by the calling thread
     * @throws McpCancelledException if the calling thread runs in a request that has already ended (nothing is
     *                               opened)
     */
    public static <T> McpScope<T, Void> open() {
        return open(Joiner.awaitAllSuccessfulOrThrow(), cf -> cf);
    }

    /**
     * Opens a scope with the given joiner and no timeout of its own.
     *
     * @param joiner decides {@link #join()}'s outcome and when it stops waiting; a new one per scope
     * @param <T>    the result type of the forks
     * @param <R>    the result type of {@link #join()}
     * @return the open scope, owned by the calling thread
     * @throws NullPointerException  if {@code joiner} is {@code null}
     * @throws McpCancelledException if the calling thread runs in a request that has already ended
     */
    public static <T, R> McpScope<T, R> open(Joiner<? super T, ? extends R> joiner) {
        return open(joiner, cf -> cf);
    }

    /**
     * Opens a scope with the given joiner, configured by {@code configFunction} (a name, a timeout), like the JDK's
     * {@code StructuredTaskScope.open(Joiner, Function)}. The timeout starts now.
     *
     * @param joiner         decides {@link #join()}'s outcome and when it stops waiting; a new one per scope
     * @param configFunction returns the configuration from the default one (no name, no timeout)
     * @param <T>            the result type of the forks
     * @param <R>            the result type of {@link #join()}
     * @return the open scope, owned by the calling thread
     * @throws NullPointerException  if an argument, or the configuration the function returns, is {@code null}
     * @throws McpCancelledException if the calling thread runs in a request that has already ended
     */
    public static <T, R> McpScope<T, R> open(Joiner<? super T, ? extends R> joiner,
                                             Function<Configuration, Configuration> configFunction) {
        Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(configFunction, "configFunction");
        Configuration config = Objects.requireNonNull(configFunction.apply(Configuration.DEFAULT), "configuration");
        try {
            return new McpScope<>(joiner, config);
        } catch (IllegalStateException e) { // the enclosing scope has ended
            throw new McpCancelledException(e.getMessage());
        }
    }

    /**
     * Starts {@code task} on a new virtual thread in this scope. After the scope was cancelled (for example because
     * the joiner has its outcome) nothing is started and the subtask stays {@link Subtask.State#UNAVAILABLE}.
     *
     * @param task the work, typically one MCP call
     * @param <U>  the task's result type
     * @return the subtask, whose result or exception is read after {@link #join()}
     * @throws WrongThreadException  if the calling thread is not the owner
     * @throws IllegalStateException if the scope was joined or closed
     * @throws NullPointerException  if {@code task} is {@code null}
     */
    public <U extends T> Subtask<U> fork(Callable<? extends U> task) {
        Objects.requireNonNull(task, "task");
        checkOwner("fork in");
        if (joined) {
            throw new IllegalStateException(purpose + " was already joined");
        }
        Fork<U> f = new Fork<>(this, scope.fork(purpose, task));
        forks.add(f);
        return f;
    }

    /**
     * Starts {@code task} like {@link #fork(Callable)}; its result is {@code null}.
     *
     * @param task the work
     * @param <U>  the subtask's result type
     * @return the subtask
     * @throws WrongThreadException  if the calling thread is not the owner
     * @throws IllegalStateException if the scope was joined or closed
     * @throws NullPointerException  if {@code task} is {@code null}
     */
    public <U extends T> Subtask<U> fork(Runnable task) {
        Objects.requireNonNull(task, "task");
        return fork(() -> {
            task.run();
            return null;
        });
    }

    /**
     * Waits until every fork has ended, or the joiner has its outcome, or the scope's deadline passes, then returns
     * the joiner's result. When the wait ends early the scope is cancelled: the forks still running are interrupted
     * and their MCP calls cancelled on the wire; {@link #close()} waits for them. Once only.
     *
     * <p>Which exception a passed deadline gives depends on who sees it first: the MCP calls in the forks carry the
     * scope's deadline themselves, so a fork whose call timed out before {@code join} noticed the deadline fails
     * with {@link McpTimeoutException}, and a joiner that stops at the first failure then reports
     * {@link FailedException} with that cause; {@code join} waiting at the deadline reports {@link TimeoutException}.
     * Handle both when the deadline matters. Likewise the end of the request the owner runs in: a 2025 server
     * request's handler (on its own thread) sees {@link McpCancelledException}; a 2026 input handler, which runs on
     * the caller's thread, is interrupted and sees {@link InterruptedException}.
     *
     * @return the joiner's result
     * @throws FailedException       if the joiner's outcome is a failure; the cause is the failed fork's exception
     * @throws TimeoutException      if the scope's deadline passed first (see above)
     * @throws McpCancelledException if the scope was cancelled from outside while waiting (the request the owner
     *                               runs in was cancelled or ended)
     * @throws InterruptedException  if the owner was interrupted before or while waiting (the scope is cancelled)
     * @throws WrongThreadException  if the calling thread is not the owner
     * @throws IllegalStateException if the scope was already joined or is closed
     */
    public R join() throws InterruptedException {
        checkOwner("join");
        if (joined) {
            throw new IllegalStateException(purpose + " was already joined");
        }
        Object internal;
        try {
            internal = scope.join();
        } catch (ScopeFailedException e) {
            throw new FailedException(e.getCause());
        } catch (ScopeTimeoutException e) {
            throw new TimeoutException(e.getMessage());
        } catch (ScopeCancelledException e) {
            throw new McpCancelledException(e.getMessage());
        } finally {
            joined = true;
        }
        return joiner.finish.apply(internal, List.copyOf(forks));
    }

    /**
     * Returns whether the scope was cancelled: by its joiner, its deadline, an interrupt of the owner in
     * {@link #join()}, the request it is part of, or {@link #close()}. Any thread.
     *
     * @return {@code true} once cancelled
     */
    public boolean isCancelled() {
        return scope.isCancelled();
    }

    /**
     * Closes the scope: cancels what is still running (MCP calls on the wire, forks interrupted), then waits until
     * every fork has ended, ignoring interrupts (the interrupt status is set again on return). Idempotent.
     *
     * @throws WrongThreadException  if the calling thread is not the owner
     * @throws IllegalStateException if a scope opened on this thread after this one is still open (it is closed
     *                               first, then this one)
     */
    @Override
    public void close() {
        checkOwner("close");
        scope.close();
    }

    @Override
    public String toString() {
        return "McpScope[" + purpose + (isCancelled() ? ", cancelled" : "") + "]";
    }

    private void checkOwner(String what) {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException(ScopeThreads.threadName() + " may not " + what + " " + purpose
                    + ": only the thread that opened it may");
        }
    }

    // ------------------------------------------------------------------------------------------------ subtask

    /**
     * A forked task: its state, then its result or exception, like {@code StructuredTaskScope.Subtask}. Its methods
     * may be called from any thread; the owner reads the result only after {@link #join()}.
     *
     * @param <T> the result type
     */
    public sealed interface Subtask<T> extends Supplier<T> permits Fork {

        /** The state of a subtask. */
        enum State {
            /**
             * Not completed yet, completed after the scope was cancelled (its outcome is not reported, as with the
             * JDK's scope), or never started because the scope was cancelled first.
             */
            UNAVAILABLE,
            /** Completed with a result. */
            SUCCESS,
            /** Completed with an exception. */
            FAILED
        }

        /**
         * Returns the subtask's state.
         *
         * @return the state
         */
        State state();

        /**
         * Returns the result of a subtask that succeeded.
         *
         * @return the result (may be {@code null})
         * @throws IllegalStateException if it did not succeed, or the owner asks before {@link #join()}
         */
        @Override
        @Nullable T get();

        /**
         * Returns the exception of a subtask that failed.
         *
         * @return the exception (an MCP call's {@link McpException}, or what the task threw)
         * @throws IllegalStateException if it did not fail, or the owner asks before {@link #join()}
         */
        Throwable exception();
    }

    private static final class Fork<U> implements Subtask<U> {
        private final McpScope<?, ?> scope;
        private final dev.loommcp.internal.scope.Subtask<U> forked;

        Fork(McpScope<?, ?> scope, dev.loommcp.internal.scope.Subtask<U> forked) {
            this.scope = scope;
            this.forked = forked;
        }

        @Override
        public State state() {
            return switch (forked.state()) {
                case UNAVAILABLE -> State.UNAVAILABLE;
                case SUCCESS -> State.SUCCESS;
                case FAILED -> State.FAILED;
            };
        }

        @Override
        public U get() {
            checkJoined();
            return forked.get();
        }

        @Override
        public Throwable exception() {
            checkJoined();
            return forked.exception();
        }

        private void checkJoined() {
            if (Thread.currentThread() == scope.owner && !scope.joined) {
                throw new IllegalStateException("the owner of " + scope.purpose + " reads a subtask before join()");
            }
        }

        @Override
        public String toString() {
            return "Subtask[" + state() + "]";
        }
    }

    // ------------------------------------------------------------------------------------------------ joiner

    /**
     * Decides the outcome of {@link #join()} and when it stops waiting, like {@code StructuredTaskScope.Joiner}; made
     * by its four factories only. A joiner keeps state: use a new one for each scope.
     *
     * @param <T> the forks' result type
     * @param <R> the result type of {@link #join()}
     */
    public static final class Joiner<T, R> {

        private final Supplier<dev.loommcp.internal.scope.Joiner<Object, ?>> policy;
        private final BiFunction<Object, List<Fork<?>>, R> finish;

        private Joiner(Supplier<dev.loommcp.internal.scope.Joiner<Object, ?>> policy, BiFunction<Object, List<Fork<?>>, R> finish) {
            this.policy = policy;
            this.finish = finish;
        }

        /**
         * Waits for every fork to succeed; the first failure cancels the scope and {@link #join()} throws it in a
         * {@link FailedException}. The result is the subtasks, all successful, in fork order (empty when none was
         * forked).
         *
         * @param <T> the forks' result type
         * @return the joiner
         */
        @SuppressWarnings("unchecked")
        public static <T> Joiner<T, Stream<Subtask<T>>> allSuccessfulOrThrow() {
            return new Joiner<>(dev.loommcp.internal.scope.Joiner::allSuccessfulOrThrow,
                    (result, forks) -> forks.stream().map(f -> (Subtask<T>) f));
        }

        /**
         * Waits for the first fork to succeed, then cancels the others; {@link #join()} returns its result, or throws
         * a {@link FailedException} with a failed fork's exception when none succeeded (with a
         * {@link java.util.NoSuchElementException} when nothing was forked).
         *
         * @param <T> the forks' result type
         * @return the joiner
         */
        @SuppressWarnings("unchecked")
        public static <T> Joiner<T, T> anySuccessfulResultOrThrow() {
            return new Joiner<>(dev.loommcp.internal.scope.Joiner::anySuccessfulResultOrThrow, (result, forks) -> (T) result);
        }

        /**
         * Waits for every fork to succeed, like {@link #allSuccessfulOrThrow()}; {@link #join()} returns
         * {@code null} (read the results from the subtasks).
         *
         * @param <T> the forks' result type
         * @return the joiner
         */
        public static <T> Joiner<T, Void> awaitAllSuccessfulOrThrow() {
            return new Joiner<>(dev.loommcp.internal.scope.Joiner::allSuccessfulOrThrow, (result, forks) -> null);
        }

        /**
         * Waits for every fork to end, whatever its outcome; {@link #join()} returns {@code null} (read each outcome
         * from its subtask). Only the deadline, an interrupt or an outside cancel stop the wait early.
         *
         * @param <T> the forks' result type
         * @return the joiner
         */
        public static <T> Joiner<T, Void> awaitAll() {
            return new Joiner<>(dev.loommcp.internal.scope.Joiner::awaitAll, (result, forks) -> null);
        }
    }

    // ------------------------------------------------------------------------------------------------ configuration

    /**
     * The configuration of a scope, given to {@link #open(Joiner, Function)}: a name and a timeout, like
     * {@code StructuredTaskScope.Configuration}. Immutable.
     */
    public static final class Configuration {

        static final Configuration DEFAULT = new Configuration(null, null);

        private final String name;
        private final Duration timeout;

        private Configuration(String name, Duration timeout) {
            this.name = name;
            this.timeout = timeout;
        }

        /**
         * Returns this configuration with a name: the scope's {@code toString()} and its threads' names
         * ({@code mcp-<name>-<n>}) carry it. Default {@code fanout}.
         *
         * @param name the name; it must not hold secrets
         * @return the new configuration
         * @throws NullPointerException if {@code name} is {@code null}
         */
        public Configuration withName(String name) {
            return new Configuration(Objects.requireNonNull(name, "name"), timeout);
        }

        /**
         * Returns this configuration with a timeout: the scope's deadline is that long after {@code open}, and never
         * later than the deadline of the request the owner runs in. Default: none (only that request's deadline).
         *
         * @param timeout the timeout, positive
         * @return the new configuration
         * @throws NullPointerException     if {@code timeout} is {@code null}
         * @throws IllegalArgumentException if {@code timeout} is zero or negative (a scope cancelled from birth)
         */
        public Configuration withTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("withTimeout must be positive: " + timeout);
            }
            return new Configuration(name, timeout);
        }

        @Override
        public String toString() {
            return "Configuration[name=" + name + ", timeout=" + timeout + "]";
        }
    }

    // ------------------------------------------------------------------------------------------------ exceptions

    /**
     * {@link #join()}'s outcome was a failure: its {@linkplain #getCause() cause} is the exception of the failed fork
     * (the first one, for the joiners that stop at the first failure), or a {@link java.util.NoSuchElementException}
     * when {@link Joiner#anySuccessfulResultOrThrow()} had nothing forked. Like
     * {@code StructuredTaskScope.FailedException}.
     */
    public static final class FailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FailedException(Throwable cause) {
            // the class only: a fork's message may carry what it was handling
            super(cause == null ? "no subtask succeeded" : "a subtask failed: " + cause.getClass().getName(), cause);
        }
    }

    /**
     * {@link #join()} waited past the scope's deadline (its timeout, or the deadline of the request it is part of);
     * the scope was cancelled. Like {@code StructuredTaskScope.TimeoutException}.
     */
    public static final class TimeoutException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TimeoutException(String message) {
            super(message);
        }
    }
}
