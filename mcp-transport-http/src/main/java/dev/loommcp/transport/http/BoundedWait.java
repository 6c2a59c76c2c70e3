package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSettings.CLOSE_TIMEOUT_MILLIS;

import dev.loommcp.Deadline;
import java.lang.System.Logger.Level;
import java.time.Duration;

/** A bounded wait of closing the transport (a join, a termination). */
interface BoundedWait {

    /**
     * Waits, bounded.
     *
     * @return whether what was awaited stopped in time
     * @throws InterruptedException when interrupted
     */
    boolean await() throws InterruptedException;

    /**
     * Runs one bounded wait of closing to its end even when interrupted (the wait is bounded, so this is bounded
     * too, by {@link HttpSettings#CLOSE_TIMEOUT_MILLIS} for the interrupted case); returns whether an interrupt
     * arrived, for the caller to restore.
     *
     * @param what   what is awaited, for the warning when it does not stop in time
     * @param origin the endpoint's origin, for that warning
     */
    static boolean run(BoundedWait wait, String what, String origin) {
        boolean interrupted = false;
        Deadline end = Deadline.after(Duration.ofMillis(CLOSE_TIMEOUT_MILLIS));
        while (true) {
            try {
                if (!wait.await()) {
                    Exchange.LOG.log(Level.WARNING, "{0} of {1} did not stop in time", what, origin);
                }
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                if (end.isExpired()) {
                    Exchange.LOG.log(Level.WARNING, "{0} of {1} did not stop in time", what, origin);
                    return true;
                }
            }
        }
    }
}
