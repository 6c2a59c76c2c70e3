package dev.loommcp.internal.session;

import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.era.Handshake;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.Deadline;
import java.time.Duration;
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
 * request fails with the session-expired exception: it may have taken effect in the old session. A request the
 * transport refused unsent ({@link McpSessionExpiredException#wasSent()} {@code false}: the session had expired
 * already) is always sent in the new session.
 *
 * <p>While a renewal runs, new calls wait for it (within their deadline) before they send, so that none goes out
 * in the gap between the old session and the new one.
 */
final class SessionRenewal {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** Methods that are safe to send again in a new session. */
    static final Set<String> IDEMPOTENT_METHODS = dev.loommcp.policy.RetryPolicy.IDEMPOTENT_METHODS;

    private final Handshake handshake;
    private final CallLife calls;
    private final ToolCatalog tools;
    private final Consumer<InitializeResult> onRenewed;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long generation;
    /** Whether a renewal is running: calls wait for it before they send. Written under {@link #lock}. */
    private volatile boolean renewing;

    /**
     * @param handshake the session's handshake
     * @param calls     the life of each request (attempts and the renewal's handshake)
     * @param tools     the catalog that knows each tool's {@code idempotentHint}
     * @param onRenewed told of each new session's {@code initialize} result, after {@code notifications/initialized}
     */
    SessionRenewal(Handshake handshake, CallLife calls, ToolCatalog tools, Consumer<InitializeResult> onRenewed) {
        this.handshake = handshake;
        this.calls = calls;
        this.tools = tools;
        this.onRenewed = onRenewed;
    }

    /**
     * Runs a call; when the transport reports that the session expired, starts a new session (once per generation)
     * and sends the request once more where the replay policy allows, within the call's first deadline. A failed
     * renewal fails the call with its own exception, the expiry added as suppressed.
     *
     * @param deadline the call's deadline, computed once at its start
     * @param onSent   told each attempt's id just before it is sent, or {@code null}
     */
    Object call(String method, Map<String, Object> params, RequestOptions options, Deadline deadline,
                Consumer<RequestId> onSent) throws InterruptedException {
        if (renewing) {
            awaitRenewal(method, deadline);
        }
        long seen = generation;
        try {
            return calls.call(method, params, options, false, null, onSent);
        } catch (McpSessionExpiredException expired) {
            // refused unsent (the session had expired already): it cannot have taken effect, it goes out once more
            boolean resend = !expired.wasSent()
                    || options.resendOnSessionExpiry().orElseGet(() -> mayResend(method, params, tools));
            RequestOptions.Builder b = RequestOptions.newBuilder();
            if (!deadline.isNone()) {
                b.timeout(remainingOrTimeout(deadline, "initialize (new session)"));
            }
            options.token().ifPresent(b::token);
            try {
                renew(seen, (m, p, o) -> calls.call(m, p, o, true, null, null), b.build(), deadline);
            } catch (RuntimeException e) {
                e.addSuppressed(expired);
                throw e;
            }
            if (!resend) {
                throw expired;
            }
            LOG.log(System.Logger.Level.DEBUG, () -> "sending " + method + " again in the new session");
            RequestOptions rest = deadline.isNone() ? options
                    : options.toBuilder().timeout(remainingOrTimeout(deadline, method + " (sent again)")).build();
            return calls.call(method, params, rest, false, null, onSent);
        }
    }

    /** Waits until the running renewal ended (it holds {@link #lock}), at most until {@code deadline}. */
    private void awaitRenewal(String method, Deadline deadline) throws InterruptedException {
        if (!lockWithin(deadline)) {
            throw new McpTimeoutException(method + " not sent: the call's deadline passed while the client started a "
                    + "new session (the server's session had expired)");
        }
        lock.unlock();
    }

    private static Duration remainingOrTimeout(Deadline deadline, String what) {
        return Deadlines.left(deadline, what + " not sent: the call's deadline had passed");
    }

    /**
     * The client's replay policy: whether a request may be sent again in a new session when its call did not decide
     * ({@link RequestOptions#resendOnSessionExpiry()}).
     *
     * @param method the request's method
     * @param params its params ({@code tools/call}: the tool's {@code name})
     * @param tools  the catalog that knows each tool's {@code idempotentHint}
     * @return whether it may be sent again
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
        if (!lockWithin(deadline)) {
            throw new McpTimeoutException("timed out waiting for a new session to start");
        }
        try {
            if (generation != seen) {
                return; // another call started the new session already
            }
            LOG.log(System.Logger.Level.DEBUG, "the server's session expired; starting a new one");
            renewing = true;
            InitializeResult result = handshake.initialize(raw, options);
            handshake.confirm(result, deadline);
            generation = seen + 1;
            renewing = false;
            onRenewed.accept(result);
            LOG.log(System.Logger.Level.DEBUG, "new session started");
        } finally {
            renewing = false;
            lock.unlock();
        }
    }

    /** Takes {@link #lock} within {@code deadline}; returns whether it did. */
    private boolean lockWithin(Deadline deadline) throws InterruptedException {
        if (deadline.isNone()) {
            lock.lockInterruptibly();
            return true;
        }
        return lock.tryLock(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
    }
}
