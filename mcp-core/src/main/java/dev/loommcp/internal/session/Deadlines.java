package dev.loommcp.internal.session;

import dev.loommcp.RequestOptions;
import dev.loommcp.spi.Deadline;
import java.time.Duration;

/** The deadline of a call from its options; the arithmetic itself is {@link Deadline}'s. */
final class Deadlines {

    private Deadlines() {
    }

    /** The call's deadline: the earlier of its timeout and deadline; the default only when it sets neither. */
    static Deadline of(RequestOptions options, Deadline start, Duration defaultTimeout) {
        Duration timeout = options.timeoutValue() != null ? options.timeoutValue()
                : options.deadlineValue() != null ? null : defaultTimeout;
        Deadline deadline = timeout == null ? Deadline.NONE : start.plus(timeout);
        if (options.deadlineValue() != null) {
            // converted once, at the start of the call: later wall-clock changes do not move it
            deadline = deadline.earliest(Deadline.at(options.deadlineValue()));
        }
        return deadline;
    }
}
