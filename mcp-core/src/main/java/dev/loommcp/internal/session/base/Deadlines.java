package dev.loommcp.internal.session.base;

import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** The deadline of a call from its options; the arithmetic itself is {@link Deadline}'s. */
public final class Deadlines {

    /** The timeout of a call without one: none (a duration no deadline can hold). */
    public static final Duration NO_TIMEOUT = ChronoUnit.FOREVER.getDuration();

    private Deadlines() {
    }

    /** The call's deadline: the earlier of its timeout and deadline; the default only when it sets neither. */
    public static Deadline of(RequestOptions options, Deadline start, Duration defaultTimeout) {
        Duration timeout = options.timeout().orElse(options.deadline().isPresent() ? null : defaultTimeout);
        Deadline deadline = timeout == null ? Deadline.NONE : start.plus(timeout);
        if (options.deadline().isPresent()) {
            // converted once, at the start of the call: later wall-clock changes do not move it
            deadline = deadline.earliest(Deadline.at(options.deadline().get()));
        }
        return deadline;
    }

    /**
     * The options of one step of a call or of connect: the token, and what is left of {@code deadline}.
     *
     * @throws McpTimeoutException if the deadline has passed: the step is not sent
     */
    public static RequestOptions within(RequestOptions options, Deadline deadline, String step) {
        if (deadline.isNone()) {
            return options;
        }
        RequestOptions.Builder b = RequestOptions.newBuilder().timeout(left(deadline, step
                + " not sent: the deadline had passed"));
        options.token().ifPresent(b::token);
        return b.build();
    }

    /**
     * The options of a further request of the same call: what is left of its deadline, the same token and the rest
     * of its options.
     *
     * @throws McpTimeoutException if the deadline has passed: the request is not sent
     */
    public static RequestOptions remaining(RequestOptions options, Deadline deadline, String method) {
        if (deadline.isNone()) {
            return options;
        }
        return options.toBuilder().timeout(left(deadline, method + " not sent: the call's deadline had passed"))
                .build();
    }

    /**
     * What is left of {@code deadline} (not {@link Deadline#NONE}).
     *
     * @param notSent the message of the timeout when nothing is left
     * @throws McpTimeoutException if the deadline has passed
     */
    public static Duration left(Deadline deadline, String notSent) {
        Duration left = deadline.remaining();
        if (left.isZero()) {
            throw new McpTimeoutException(notSent);
        }
        return left;
    }

    /**
     * The limit of a call that resets its timeout on progress: its absolute deadline and its
     * {@code maxTotalTimeout}, whichever comes first; {@link Deadline#NONE} when it sets neither.
     */
    public static Deadline hardLimit(RequestOptions options, Deadline start) {
        Deadline limit = Deadline.NONE;
        if (options.deadline().isPresent()) {
            limit = limit.earliest(Deadline.at(options.deadline().get()));
        }
        if (options.maxTotalTimeout().isPresent()) {
            limit = limit.earliest(start.plus(options.maxTotalTimeout().get()));
        }
        return limit;
    }
}
