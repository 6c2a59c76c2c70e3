package dev.loommcp.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The policy values of issue 30 section 3: defaults as documented, every bad setting refused naming the setting,
 * equal values equal, and a policy with nothing set being {@link ResiliencePolicy#NONE}.
 */
class ResiliencePolicyTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(ResiliencePolicy.NONE.isNone()).isTrue();
        assertThat(ResiliencePolicy.NONE.rateLimit()).isEmpty();
        assertThat(ResiliencePolicy.NONE.circuitBreaker()).isEmpty();
        assertThat(ResiliencePolicy.NONE.budget()).isEmpty();
        assertThat(ResiliencePolicy.NONE.retry()).isEmpty();
        assertThat(ResiliencePolicy.newBuilder().build()).isEqualTo(ResiliencePolicy.NONE);

        CircuitBreakerPolicy breaker = CircuitBreakerPolicy.newBuilder().build();
        assertThat(breaker.failureThreshold()).isEqualTo(5);
        assertThat(breaker.window()).isEqualTo(Duration.ofSeconds(30));
        assertThat(breaker.openDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(breaker.halfOpenProbes()).isEqualTo(1);
        assertThat(breaker.countToolErrors()).isFalse();
        assertThat(breaker.countOverloaded()).isFalse();

        RetryPolicy retry = RetryPolicy.newBuilder().build();
        assertThat(retry.maxAttempts()).isEqualTo(3);
        assertThat(retry.initialBackoff()).isEqualTo(Duration.ofMillis(100));
        assertThat(retry.maxBackoff()).isEqualTo(Duration.ofSeconds(5));
        assertThat(retry.multiplier()).isEqualTo(2.0);
        assertThat(retry.retryIdempotentTools()).isFalse();
        assertThat(RetryPolicy.isIdempotent("tools/list")).isTrue();
        assertThat(RetryPolicy.isIdempotent("tools/call")).isFalse();

        RateLimit rate = RateLimit.perSecond(2.5);
        assertThat(rate.callsPerSecond()).hasValue(2.5);
        assertThat(rate.burst()).isEqualTo(1);
        assertThat(rate.maxConcurrent()).isEmpty();
        assertThat(RateLimit.concurrent(4).callsPerSecond()).isEmpty();
        assertThat(RateLimit.concurrent(4).maxConcurrent()).hasValue(4);

        Budget budget = Budget.newBuilder().maxToolCallsPerSession(10).build();
        assertThat(budget.maxToolCallsPerSession()).hasValue(10);
        assertThat(budget.maxResultBytesPerCall()).isEmpty();
        assertThat(budget.maxResultBytesPerSession()).isEmpty();
    }

    @Test
    void theBackoffGrowsByTheMultiplierUpToItsMaximum() {
        RetryPolicy retry = RetryPolicy.newBuilder().initialBackoff(Duration.ofMillis(100)).multiplier(3)
                .maxBackoff(Duration.ofSeconds(1)).build();
        assertThat(retry.backoff(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(retry.backoff(2)).isEqualTo(Duration.ofMillis(300));
        assertThat(retry.backoff(3)).isEqualTo(Duration.ofMillis(900));
        assertThat(retry.backoff(4)).isEqualTo(Duration.ofSeconds(1));
        assertThat(retry.backoff(1000)).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> retry.backoff(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("failed");
    }

    @Test
    void badSettingsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> RateLimit.perSecond(0)).hasMessageContaining("callsPerSecond");
        assertThatThrownBy(() -> RateLimit.perSecond(Double.NaN)).hasMessageContaining("callsPerSecond");
        assertThatThrownBy(() -> RateLimit.perSecond(Double.POSITIVE_INFINITY)).hasMessageContaining("callsPerSecond");
        assertThatThrownBy(() -> RateLimit.newBuilder().burst(0)).hasMessageContaining("burst");
        assertThatThrownBy(() -> RateLimit.concurrent(0)).hasMessageContaining("maxConcurrent");
        assertThatThrownBy(() -> RateLimit.newBuilder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("callsPerSecond or maxConcurrent");

        assertThatThrownBy(() -> CircuitBreakerPolicy.newBuilder().failureThreshold(0))
                .hasMessageContaining("failureThreshold");
        assertThatThrownBy(() -> CircuitBreakerPolicy.newBuilder().window(Duration.ZERO))
                .hasMessageContaining("window");
        assertThatThrownBy(() -> CircuitBreakerPolicy.newBuilder().openDuration(Duration.ofSeconds(-1)))
                .hasMessageContaining("openDuration");
        assertThatThrownBy(() -> CircuitBreakerPolicy.newBuilder().window(null))
                .isInstanceOf(NullPointerException.class).hasMessage("window");
        assertThatThrownBy(() -> CircuitBreakerPolicy.newBuilder().halfOpenProbes(0))
                .hasMessageContaining("halfOpenProbes");

        assertThatThrownBy(() -> Budget.newBuilder().maxToolCallsPerSession(0)).hasMessageContaining("maxToolCallsPerSession");
        assertThatThrownBy(() -> Budget.newBuilder().maxResultBytesPerCall(-1))
                .hasMessageContaining("maxResultBytesPerCall");
        assertThatThrownBy(() -> Budget.newBuilder().maxResultBytesPerSession(0))
                .hasMessageContaining("maxResultBytesPerSession");
        assertThatThrownBy(() -> Budget.newBuilder().build()).isInstanceOf(IllegalStateException.class);

        assertThatThrownBy(() -> RetryPolicy.attempts(1)).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> RetryPolicy.newBuilder().multiplier(0.5)).hasMessageContaining("multiplier");
        assertThatThrownBy(() -> RetryPolicy.newBuilder().initialBackoff(Duration.ZERO))
                .hasMessageContaining("initialBackoff");
        assertThatThrownBy(() -> RetryPolicy.newBuilder().initialBackoff(Duration.ofSeconds(10))
                .maxBackoff(Duration.ofSeconds(1)).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maxBackoff");
        assertThatThrownBy(() -> new CircuitStateChange(null, CircuitState.OPEN, null))
                .isInstanceOf(NullPointerException.class).hasMessage("previous");
    }

    @Test
    void equalSettingsMakeEqualPoliciesAndToBuilderKeepsThem() {
        ResiliencePolicy a = ResiliencePolicy.newBuilder().rateLimit(RateLimit.perSecond(5))
                .circuitBreaker(CircuitBreakerPolicy.of(3, Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .budget(Budget.newBuilder().maxResultBytesPerCall(1000).build()).retry(RetryPolicy.attempts(4))
                .build();
        ResiliencePolicy b = a.toBuilder().build();
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(b.toString()).contains("5.0 calls per second", "3 failures", "1000", "4 attempts");
        assertThat(a.toBuilder().retry(null).build()).isNotEqualTo(a);
        assertThat(a.isNone()).isFalse();
    }
}
