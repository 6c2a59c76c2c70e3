package dev.loommcp.internal.concurrent;

import java.util.Objects;

/**
 * Runs code the application handed to loom-mcp (listeners, handlers, cancel actions) so that nothing it throws, not
 * even an {@link Error} such as {@link AssertionError}, {@link StackOverflowError} or {@link NoClassDefFoundError},
 * ends the thread or the loop that called it.
 *
 * <p>A failure is logged at {@code WARNING} with the exception's class and stack trace but never its message (a
 * message may carry a server's payload); the full exception, message included, is logged at {@code TRACE} only.
 * Thread-safe: it keeps no state.
 */
public final class UserCode {

    private UserCode() {
    }

    /**
     * Runs a callback and reports whatever it throws.
     *
     * @param log      where a failure is logged
     * @param what     what the callback is, for the log ("the notification listener"); no payloads
     * @param callback the callback
     * @return {@code true} if it returned normally, {@code false} if it threw (the failure was logged)
     */
    public static boolean run(System.Logger log, String what, Runnable callback) {
        try {
            callback.run();
            return true;
        } catch (Throwable t) {
            failed(log, what, t);
            return false;
        }
    }

    /**
     * Logs that a callback failed: at {@code WARNING} without the exception's message, at {@code TRACE} with it.
     * Never throws, even when logging itself fails (for example when memory ran out).
     *
     * @param log     the logger
     * @param what    what failed, for the log; no payloads
     * @param failure what it threw
     */
    public static void failed(System.Logger log, String what, Throwable failure) {
        try {
            Objects.requireNonNull(failure, "failure");
            log.log(System.Logger.Level.WARNING, what + " failed with " + failure.getClass().getName()
                    + "; carrying on (its message is logged at TRACE only)", new Trace(failure, 0));
            if (log.isLoggable(System.Logger.Level.TRACE)) {
                log.log(System.Logger.Level.TRACE, what + " failed", failure);
            }
        } catch (Throwable ignored) {
            // nothing sensible is left to do: the caller must carry on regardless
        }
    }

    /** A stand-in for a failure that shows its class and stack trace but not its message. */
    private static final class Trace extends Throwable {
        private static final int MAX_CAUSES = 8;

        Trace(Throwable of, int depth) {
            super(of.getClass().getName(), of.getCause() == null || of.getCause() == of || depth >= MAX_CAUSES
                    ? null : new Trace(of.getCause(), depth + 1), false, true);
            setStackTrace(of.getStackTrace());
        }

        @Override
        public String toString() {
            return getMessage(); // the class name alone
        }
    }
}
