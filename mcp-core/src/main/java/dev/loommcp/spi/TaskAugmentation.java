package dev.loommcp.spi;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The task a {@code tools/call} asks for: the {@code task: {ttl}} member of its params (MCP 2025-11-25 tasks,
 * MODERN-ERA.md C.6.3). Whether a call asks for one is the installed {@link TaskSupport}'s decision
 * ({@link TaskSupport#augmentation}); the core only writes it into the request. The server may override the TTL.
 * Immutable.
 *
 * @param ttl how long the server should keep the task, or {@code null} to let the server choose (then
 *            {@code task: {}} is sent); sent in whole milliseconds
 */
public record TaskAugmentation(@Nullable Duration ttl) {

    /**
     * Checks the TTL.
     *
     * @throws IllegalArgumentException if {@code ttl} is zero or negative
     */
    public TaskAugmentation {
        if (ttl != null && (ttl.isZero() || ttl.isNegative())) {
            throw new IllegalArgumentException("a task's ttl must be positive: " + ttl);
        }
    }
}
