package dev.loommcp;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import dev.loommcp.event.ProgressListener;
import org.jspecify.annotations.Nullable;

/**
 * Per-call options: a timeout or an absolute deadline, a {@link CancellationToken}, a {@link ProgressListener},
 * extra {@code _meta}, and whether progress resets the timeout (DESIGN.md section 2; the seeds' per-call deadline,
 * cancel token and per-call {@code _meta}).
 *
 * <p>The effective deadline of a call is the earliest of: now + {@link #timeout()}, {@link #deadline()},
 * and now + the client's default request timeout (which applies when neither is set). With
 * {@link #resetTimeoutOnProgress()} the timeout restarts at each progress notification for the call, but never past
 * {@link #maxTotalTimeout()}.
 *
 * <p>Immutable and thread-safe; one instance may be shared by many calls.
 */
public final class RequestOptions {

    /** No options: the client's defaults. */
    public static final RequestOptions DEFAULT = newBuilder().build();

    // kept as Optional so that the accessors, read on every call, allocate nothing
    private final Optional<Duration> timeout;
    private final Optional<Instant> deadline;
    private final Optional<CancellationToken> token;
    private final Optional<ProgressListener> progressListener;
    private final Map<String, @Nullable Object> meta;
    private final boolean resetTimeoutOnProgress;
    private final Optional<Duration> maxTotalTimeout;
    private final Optional<Boolean> resendOnSessionExpiry;

    private RequestOptions(Builder b) {
        this.timeout = Optional.ofNullable(b.timeout);
        this.deadline = Optional.ofNullable(b.deadline);
        this.token = Optional.ofNullable(b.token);
        this.progressListener = Optional.ofNullable(b.progressListener);
        this.meta = b.meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(b.meta));
        this.resetTimeoutOnProgress = b.resetTimeoutOnProgress;
        this.maxTotalTimeout = Optional.ofNullable(b.maxTotalTimeout);
        this.resendOnSessionExpiry = Optional.ofNullable(b.resendOnSessionExpiry);
    }

    /**
     * Returns options with just a timeout: {@code RequestOptions.ofTimeout(Duration.ofSeconds(5))}.
     *
     * @param timeout how long the call may take, positive
     * @return the options
     * @throws IllegalArgumentException if the timeout is zero or negative
     * @throws NullPointerException     if it is {@code null}
     */
    public static RequestOptions ofTimeout(Duration timeout) {
        return newBuilder().timeout(Objects.requireNonNull(timeout, "timeout")).build();
    }

    /**
     * Returns options with just a deadline, for a call that shares the bound of a larger piece of work:
     * {@code RequestOptions.ofDeadline(Deadline.after(Duration.ofSeconds(30)))}. The deadline is taken as the
     * instant it falls on now ({@link #deadline()}); an expired one makes the call fail with
     * {@link McpTimeoutException} without waiting; {@link Deadline#NONE} sets none (the client's default timeout then
     * applies, as with {@link #DEFAULT}).
     *
     * @param deadline when the call must have completed
     * @return the options
     * @throws NullPointerException if it is {@code null}
     */
    public static RequestOptions ofDeadline(Deadline deadline) {
        Objects.requireNonNull(deadline, "deadline");
        return deadline.isNone() ? DEFAULT : newBuilder().deadline(Instant.now().plus(deadline.remaining())).build();
    }

    /**
     * Returns options with just a cancellation token: {@code RequestOptions.ofToken(token)}.
     *
     * @param token the token
     * @return the options
     * @throws NullPointerException if it is {@code null}
     */
    public static RequestOptions ofToken(CancellationToken token) {
        return newBuilder().token(Objects.requireNonNull(token, "token")).build();
    }

    /**
     * Returns a new builder with nothing set.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns a builder that starts from these options.
     *
     * @return the builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.timeout = timeout.orElse(null);
        b.deadline = deadline.orElse(null);
        b.token = token.orElse(null);
        b.progressListener = progressListener.orElse(null);
        b.meta = meta.isEmpty() ? null : new LinkedHashMap<>(meta);
        b.resetTimeoutOnProgress = resetTimeoutOnProgress;
        b.maxTotalTimeout = maxTotalTimeout.orElse(null);
        b.resendOnSessionExpiry = resendOnSessionExpiry.orElse(null);
        return b;
    }

    /**
     * Returns the per-call timeout.
     *
     * @return the timeout; empty when the call uses the client's default (unless a {@link #deadline()} is set)
     */
    public Optional<Duration> timeout() {
        return timeout;
    }

    /**
     * Returns the absolute deadline.
     *
     * @return the deadline, or empty for none
     */
    public Optional<Instant> deadline() {
        return deadline;
    }

    /**
     * Returns the cancellation token.
     *
     * @return the token, or empty for none
     */
    public Optional<CancellationToken> token() {
        return token;
    }

    /**
     * Returns the progress listener. When set, the client adds an SDK-assigned {@code progressToken} to the
     * request's {@code _meta} and calls the listener for each {@code notifications/progress} with that token (an
     * exact integer), on the calling thread while it waits: all that arrived before the response, before the call
     * returns, and none after (see {@link ProgressListener}).
     *
     * @return the listener, or empty for none
     */
    public Optional<ProgressListener> progressListener() {
        return progressListener;
    }

    /**
     * Returns the extra {@code _meta} merged key by key over the client's persistent tool {@code _meta} for this call.
     *
     * @return an unmodifiable map, empty when none was set
     */
    public Map<String, @Nullable Object> meta() {
        return meta;
    }

    /**
     * Returns whether a progress notification restarts the timeout.
     *
     * @return {@code true} if it does; default {@code false}
     */
    public boolean resetTimeoutOnProgress() {
        return resetTimeoutOnProgress;
    }

    /**
     * Returns the hard maximum for a call whose timeout restarts on progress.
     *
     * @return the maximum, or empty for none beyond the {@link #deadline()}
     */
    public Optional<Duration> maxTotalTimeout() {
        return maxTotalTimeout;
    }

    /**
     * Returns this call's own answer to "may it be sent again in a new session?" when the server expired the session
     * it was sent in (Streamable HTTP: a 404 for a request that carried {@code Mcp-Session-Id}).
     *
     * @return {@code true} (always resend once), {@code false} (never), or empty for the client's policy: resend
     *         only idempotent methods and {@code tools/call} of a tool listed with {@code idempotentHint: true}
     */
    public Optional<Boolean> resendOnSessionExpiry() {
        return resendOnSessionExpiry;
    }

    @Override
    public String toString() {
        return "RequestOptions[timeout=" + timeout.orElse(null) + ", deadline=" + deadline.orElse(null) + ", token="
                + token.isPresent()
                + ", progress=" + progressListener.isPresent() + ", meta keys=" + meta.size()
                + ", resetTimeoutOnProgress=" + resetTimeoutOnProgress + ", maxTotalTimeout=" + maxTotalTimeout.orElse(null)
                + ", resendOnSessionExpiry=" + resendOnSessionExpiry.orElse(null) + "]";
    }

    /** Builds {@link RequestOptions}. Not thread-safe. */
    public static final class Builder {
        private Duration timeout;
        private Instant deadline;
        private CancellationToken token;
        private ProgressListener progressListener;
        private Map<String, @Nullable Object> meta;
        private boolean resetTimeoutOnProgress;
        private Duration maxTotalTimeout;
        private Boolean resendOnSessionExpiry;

        private Builder() {
        }

        /**
         * Sets the per-call timeout.
         *
         * @param timeout positive duration, or {@code null} to use the client's default
         * @return this builder
         * @throws IllegalArgumentException if the timeout is zero or negative
         */
        public Builder timeout(@Nullable Duration timeout) {
            if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets an absolute deadline (converted once to a monotonic deadline when the call starts).
         *
         * @param deadline the deadline, or {@code null}
         * @return this builder
         */
        public Builder deadline(@Nullable Instant deadline) {
            this.deadline = deadline;
            return this;
        }

        /**
         * Sets the cancellation token.
         *
         * @param token the token, or {@code null}
         * @return this builder
         */
        public Builder token(@Nullable CancellationToken token) {
            this.token = token;
            return this;
        }

        /**
         * Sets the progress listener.
         *
         * @param listener the listener, or {@code null}
         * @return this builder
         */
        public Builder progressListener(@Nullable ProgressListener listener) {
            this.progressListener = listener;
            return this;
        }

        /**
         * Sets the extra {@code _meta} for this call (keys win over the persistent tool {@code _meta}).
         *
         * @param meta the map, or {@code null}
         * @return this builder
         */
        public Builder meta(@Nullable Map<String, @Nullable Object> meta) {
            this.meta = meta == null ? null : new LinkedHashMap<>(meta);
            return this;
        }

        /**
         * Adds one {@code _meta} entry for this call.
         *
         * @param key   the key
         * @param value a plain JSON value; {@code null} for JSON {@code null}
         * @return this builder
         */
        public Builder putMeta(String key, @Nullable Object value) {
            Objects.requireNonNull(key, "key");
            if (meta == null) {
                meta = new LinkedHashMap<>();
            }
            meta.put(key, value);
            return this;
        }

        /**
         * Makes each progress notification restart the timeout, up to {@code maxTotal} overall (MCP "Progress":
         * receivers may reset timeouts on progress but should keep a maximum). The request then carries a
         * {@code progressToken} in its {@code _meta} (a server sends progress only for a token), with or without a
         * {@linkplain #progressListener progress listener}.
         *
         * @param maxTotal the hard maximum, or {@code null} for none beyond the deadline
         * @return this builder
         * @throws IllegalArgumentException if {@code maxTotal} is zero or negative
         */
        public Builder resetTimeoutOnProgress(@Nullable Duration maxTotal) {
            if (maxTotal != null && (maxTotal.isZero() || maxTotal.isNegative())) {
                throw new IllegalArgumentException("resetTimeoutOnProgress(maxTotal) must be positive: " + maxTotal);
            }
            this.resetTimeoutOnProgress = true;
            this.maxTotalTimeout = maxTotal;
            return this;
        }

        /**
         * Decides whether this call is sent once more in a new session when the server expired the session it was
         * sent in; the client starts the new session either way. Without this option the client resends only what
         * is safe to repeat: idempotent methods (listings, reads, {@code ping}, {@code logging/setLevel},
         * subscriptions, completion) and {@code tools/call} of a tool whose last listing said
         * {@code idempotentHint: true}; anything else fails with {@link McpSessionExpiredException}, since it may
         * have taken effect. {@code true} resends this call whatever it is (the caller knows it is safe);
         * {@code false} never resends it.
         *
         * @param resend whether to resend once
         * @return this builder
         */
        public Builder resendOnSessionExpiry(boolean resend) {
            this.resendOnSessionExpiry = resend;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return the options
         */
        public RequestOptions build() {
            return new RequestOptions(this);
        }
    }
}
