package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.event.Subscription;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one registration type: what {@link CancellationToken#onCancel} and a subscription return. */
class RegistrationTest {

    @Test
    void aCancelRegistrationClosesInTryWithResourcesWithoutACatch() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        try (Registration ignored = token.onCancel(runs::incrementAndGet)) {
            assertThat(runs).hasValue(0);
        } // close() declares no exception: no catch needed
        token.cancel();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aLambdaIsARegistrationAndClosingTwiceIsHarmless() {
        AtomicInteger closes = new AtomicInteger();
        Registration r = closes::incrementAndGet;
        r.close();
        assertThat(closes).hasValue(1);
    }

    @Test
    void aSubscriptionIsARegistration() {
        assertThat(Registration.class).isAssignableFrom(Subscription.class);
    }
}
