package dev.loommcp.tasks;

import java.time.Instant;
import java.util.Objects;

/**
 * The right to drive one recorded task, granted by {@link TaskStore#claim(String, String, String, java.time.Duration)}
 * or {@link TaskStore#claimDue}: while it runs no other owner (another replica sharing the store) is granted the same
 * task; it ends at {@link #until()} unless its owner extends it ({@link TaskStore#heartbeat}), so the tasks of a
 * replica that died are claimed by another once their leases pass. {@link #fence()} grows with every grant of the
 * same task: a store refuses the heartbeat, release or update of an owner whose lease was granted to another since.
 * Immutable.
 *
 * @param serverKey the server's identity
 * @param taskId    the task's id
 * @param owner     who holds it (an id unique per owner, chosen by the caller)
 * @param fence     the fencing token, greater than that of every earlier grant of the task; {@code 0} for a store
 *                  whose default lease does not count grants
 * @param until     when it ends, on the store's clock
 */
public record TaskLease(String serverKey, String taskId, String owner, long fence, Instant until) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component is {@code null}
     */
    public TaskLease {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(until, "until");
    }
}
