package dev.loommcp.internal.session;

import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.spi.Deadline;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Starts a new session after the transport reported the old one expired ({@link McpSessionExpiredException}), and
 * says which requests may be sent again in it. One renewal per session generation: calls that failed in the same
 * session share the first one's renewal. A renewal runs the {@link Handshake} with the same checks as
 * {@code connect()}; when it fails, the generation stays, so the next expiry tries again. Thread-safe.
 *
 * <p>The replay policy: a request is sent once more in the new session only when repeating it cannot do harm: the
 * methods in {@link #IDEMPOTENT_METHODS} (reads, listings, and settings whose repetition has no further effect),
 * and {@code tools/call} of a tool whose last listing declared {@code annotations.idempotentHint: true}. Any other
 * request fails with the session-expired exception: it may have taken effect in the old session.
 */
final class SessionRenewal {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** Methods that are safe to send again in a new session. */
    static final Set<String> IDEMPOTENT_METHODS = Set.of("ping", "tools/list", "resources/list",
            "resources/templates/list", "prompts/list", "resources/read", "prompts/get", "completion/complete",
            "logging/setLevel", "resources/subscribe", "resources/unsubscribe");

    private final Handshake handshake;
    private final Consumer<InitializeResult> onRenewed;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long generation;

    /**
     * @param handshake the session's handshake
     * @param onRenewed told of each new session's {@code initialize} result, after {@code notifications/initialized}
     */
    SessionRenewal(Handshake handshake, Consumer<InitializeResult> onRenewed) {
        this.handshake = handshake;
        this.onRenewed = onRenewed;
    }

    /** The session generation: read before a request is sent, passed to {@link #renew} when it expired. */
    long generation() {
        return generation;
    }

    /**
     * Whether a request may be sent again in a new session.
     *
     * @param tools the catalog that knows each tool's {@code idempotentHint}
     */
    static boolean mayResend(String method, Map<String, Object> params, ToolCatalog tools) {
        if (IDEMPOTENT_METHODS.contains(method)) {
            return true;
        }
        return method.equals("tools/call") && params != null && params.get("name") instanceof String name
                && tools.isIdempotent(name);
    }

    /**
     * Starts a new session unless one was started since {@code seen}: {@code initialize} with the version checks,
     * the version to the transport, then {@code notifications/initialized}. Waits (up to {@code deadline}) while
     * another call renews.
     *
     * @param seen     the generation the expired request was sent in
     * @param raw      the session's raw call for the handshake's request
     * @param options  deadline and token of the handshake
     * @param deadline the same deadline, for the notification
     * @throws McpTimeoutException if the deadline passed while another call renewed
     */
    void renew(long seen, Handshake.RawCall raw, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        long wait = deadline.remainingNanos();
        if (!(wait == Long.MAX_VALUE ? lockInterruptibly() : lock.tryLock(wait, TimeUnit.NANOSECONDS))) {
            throw new McpTimeoutException("timed out waiting for a new session to start");
        }
        try {
            if (generation != seen) {
                return; // another call started the new session already
            }
            LOG.log(System.Logger.Level.INFO, "the server's session expired; starting a new one");
            InitializeResult result = handshake.initialize(raw, options);
            handshake.confirm(result, deadline);
            generation = seen + 1;
            onRenewed.accept(result);
            LOG.log(System.Logger.Level.INFO, "new session started");
        } finally {
            lock.unlock();
        }
    }

    private boolean lockInterruptibly() throws InterruptedException {
        lock.lockInterruptibly();
        return true;
    }
}
