/**
 * Resilience per server: the policies a client applies to its own requests before they reach the wire, set with
 * {@link dev.loommcp.McpClient.Builder#resilience(dev.loommcp.policy.ResiliencePolicy)} (and, for hosted servers,
 * {@code McpServers.Builder.resilience}). A client talks to one server, so each client's policy is that server's.
 *
 * <ul>
 *   <li>{@link dev.loommcp.policy.RateLimit}: calls per second (a token bucket with a burst) and calls in flight at
 *       once; a caller waits for its permit within its call's deadline and cancellation.</li>
 *   <li>{@link dev.loommcp.policy.CircuitBreakerPolicy}: opens after a number of failures within a sliding time
 *       window, lets probe calls through after a wait, closes on a probe's success; while open, calls fail at once
 *       with {@link dev.loommcp.McpCircuitOpenException}. Its states are {@link dev.loommcp.policy.CircuitState}, told
 *       as {@link dev.loommcp.policy.CircuitStateChange}s.</li>
 *   <li>{@link dev.loommcp.policy.Budget}: result bytes per call, calls and result bytes per client; beyond it a
 *       call fails with {@link dev.loommcp.McpBudgetExceededException}.</li>
 *   <li>{@link dev.loommcp.policy.RetryPolicy}: idempotent requests sent again after a transport failure, with
 *       exponential backoff and jitter, within the call's deadline.</li>
 * </ul>
 *
 * <p>Every policy is an immutable value, safe to share between clients: each client keeps its own counters, so one
 * policy given to ten clients limits each of them, not the ten together. Everything is off unless set
 * ({@link dev.loommcp.policy.ResiliencePolicy#NONE}); docs/policies.md ("Resilience") says which defaults apply inside
 * a policy once it is set, and why.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.policy;

import org.jspecify.annotations.NullMarked;
