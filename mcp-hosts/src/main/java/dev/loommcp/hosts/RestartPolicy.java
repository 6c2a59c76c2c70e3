package dev.loommcp.hosts;

import java.time.Duration;
import java.util.Objects;

/**
 * When a registry restarts a server whose connection failed after it was ready (a crashed stdio process, an HTTP
 * connection the client gave up): after a backoff that doubles from {@code initialBackoff} up to {@code maxBackoff}
 * with each consecutive restart, at most {@code maxRestarts} consecutive restarts; then the server is
 * {@link ServerState#FAILED}. A server that stays {@link ServerState#READY} for {@code stableAfter} has its count of
 * consecutive restarts reset. A server that fails its first start is {@link ServerState#FAILED} at once (calls fail
 * fast) and is started again in the background with the same backoff and count, going to {@link ServerState#READY}
 * when a retry succeeds; {@link McpServers#restart(String)} starts it with a fresh count. {@link #NEVER} retries
 * nothing.
 *
 * @param maxRestarts    the most consecutive restarts, 0 for none
 * @param initialBackoff the wait before the first restart
 * @param maxBackoff     the longest wait, at least {@code initialBackoff}
 * @param stableAfter    how long a server must stay ready for its count to reset
 */
public record RestartPolicy(int maxRestarts, Duration initialBackoff, Duration maxBackoff, Duration stableAfter) {

    /** The default: 5 restarts, 250 ms doubling up to 30 s, reset after 60 s of being ready. */
    public static final RestartPolicy DEFAULT = new RestartPolicy(5, Duration.ofMillis(250), Duration.ofSeconds(30),
            Duration.ofSeconds(60));

    /** No restarts: a server whose connection or first start fails is failed, and stays so. */
    public static final RestartPolicy NEVER = new RestartPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if {@code maxRestarts} or a duration is negative, or {@code maxBackoff} is
     *                                  shorter than {@code initialBackoff}
     * @throws NullPointerException     if a duration is {@code null}
     */
    public RestartPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(stableAfter, "stableAfter");
        if (maxRestarts < 0 || initialBackoff.isNegative() || maxBackoff.isNegative() || stableAfter.isNegative()) {
            throw new IllegalArgumentException("restart policy: counts and durations must not be negative");
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("restart policy: maxBackoff must be at least initialBackoff");
        }
    }

    /**
     * Returns the wait before a consecutive restart.
     *
     * @param attempt the restart's number among consecutive ones, from 1
     * @return {@code min(maxBackoff, initialBackoff * 2^(attempt-1))}
     * @throws IllegalArgumentException if {@code attempt} is less than 1
     */
    public Duration backoff(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1");
        }
        Duration d = initialBackoff;
        for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }
}
