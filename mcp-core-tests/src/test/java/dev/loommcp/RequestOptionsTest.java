package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import dev.loommcp.event.ProgressListener;

/** {@link RequestOptions}: defaults, validation, immutability. */
class RequestOptionsTest {

    @Test
    void defaultSetsNothing() {
        RequestOptions d = RequestOptions.DEFAULT;
        assertThat(d.timeout()).isEmpty();
        assertThat(d.deadline()).isEmpty();
        assertThat(d.token()).isEmpty();
        assertThat(d.progressListener()).isEmpty();
        assertThat(d.meta()).isEmpty();
        assertThat(d.resetTimeoutOnProgress()).isFalse();
        assertThat(d.maxTotalTimeout()).isEmpty();
    }

    @Test
    void factoriesSetOneThing() {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        CancellationToken token = CancellationToken.create();
        assertThat(RequestOptions.ofTimeout(Duration.ofSeconds(3)).timeout()).get().isEqualTo(Duration.ofSeconds(3));
        // a monotonic deadline is taken as the instant it falls on: the same instant within the clocks' rounding
        assertThat(RequestOptions.ofDeadline(Deadline.at(at)).deadline()).get()
                .satisfies(d -> assertThat(Duration.between(at, d).abs()).isLessThan(Duration.ofSeconds(1)));
        assertThat(RequestOptions.ofDeadline(Deadline.at(at)).timeout()).isEmpty();
        assertThat(RequestOptions.ofToken(token).token()).get().isSameAs(token);
        assertThat(RequestOptions.ofToken(token).timeout()).isEmpty();
    }

    @Test
    void ofDeadlineNoneSetsNoDeadlineAndAnExpiredOneIsInThePast() {
        assertThat(RequestOptions.ofDeadline(Deadline.NONE).deadline()).isEmpty();
        assertThat(RequestOptions.ofDeadline(Deadline.NONE)).isSameAs(RequestOptions.DEFAULT);
        assertThat(RequestOptions.ofDeadline(Deadline.after(Duration.ofSeconds(-5))).deadline()).get()
                .satisfies(d -> assertThat(d).isBeforeOrEqualTo(Instant.now()));
    }

    @Test
    void theTimeoutMustBePositive() {
        assertThatThrownBy(() -> RequestOptions.ofTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RequestOptions.ofTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RequestOptions.newBuilder().timeout(null).build().timeout()).isEmpty();
    }

    /** The message names the setter the user called, not its parameter. */
    @Test
    void aZeroOrNegativeMaximumOfResetTimeoutOnProgressNamesTheSetter() {
        assertThatThrownBy(() -> RequestOptions.newBuilder().resetTimeoutOnProgress(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("resetTimeoutOnProgress(maxTotal) must be positive: PT0S");
        assertThatThrownBy(() -> RequestOptions.newBuilder().resetTimeoutOnProgress(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("resetTimeoutOnProgress");
    }

    @Test
    void resetTimeoutOnProgressKeepsItsMaximum() {
        RequestOptions o = RequestOptions.newBuilder().resetTimeoutOnProgress(Duration.ofMinutes(5)).build();
        assertThat(o.resetTimeoutOnProgress()).isTrue();
        assertThat(o.maxTotalTimeout()).get().isEqualTo(Duration.ofMinutes(5));
        RequestOptions unbounded = RequestOptions.newBuilder().resetTimeoutOnProgress(null).build();
        assertThat(unbounded.resetTimeoutOnProgress()).isTrue();
        assertThat(unbounded.maxTotalTimeout()).isEmpty();
    }

    @Test
    void metaIsCopiedAndUnmodifiable() {
        Map<String, Object> source = new HashMap<>(Map.of("a", 1));
        RequestOptions.Builder b = RequestOptions.newBuilder().meta(source);
        source.put("b", 2);
        RequestOptions o = b.putMeta("c", 3).build();
        b.putMeta("d", 4);
        assertThat(o.meta()).isEqualTo(Map.of("a", 1, "c", 3));
        assertThatThrownBy(() -> o.meta().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(RequestOptions.newBuilder().meta(null).build().meta()).isEmpty();
        assertThatThrownBy(() -> RequestOptions.newBuilder().putMeta(null, 1)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aNullMetaValueIsAllowed() {
        Map<String, Object> withNull = new LinkedHashMap<>();
        withNull.put("k", null);
        RequestOptions o = RequestOptions.newBuilder().putMeta("k", null).build();
        assertThat(o.meta()).containsEntry("k", null);
        assertThat(RequestOptions.newBuilder().meta(withNull).build().meta()).containsEntry("k", null);
    }

    @Test
    void toBuilderCopiesEverythingAndIsIndependent() {
        CancellationToken token = CancellationToken.create();
        ProgressListener listener = p -> { };
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        RequestOptions o = RequestOptions.newBuilder().timeout(Duration.ofSeconds(1)).deadline(at).token(token)
                .progressListener(listener).putMeta("k", "v").resetTimeoutOnProgress(Duration.ofSeconds(9)).build();
        RequestOptions copy = o.toBuilder().build();
        assertThat(copy.timeout()).get().isEqualTo(Duration.ofSeconds(1));
        assertThat(copy.deadline()).get().isEqualTo(at);
        assertThat(copy.token()).get().isSameAs(token);
        assertThat(copy.progressListener()).get().isSameAs(listener);
        assertThat(copy.meta()).isEqualTo(Map.of("k", "v"));
        assertThat(copy.resetTimeoutOnProgress()).isTrue();
        assertThat(copy.maxTotalTimeout()).get().isEqualTo(Duration.ofSeconds(9));

        RequestOptions changed = o.toBuilder().putMeta("k2", "v2").timeout(Duration.ofSeconds(2)).build();
        assertThat(o.meta()).isEqualTo(Map.of("k", "v"));
        assertThat(o.timeout()).get().isEqualTo(Duration.ofSeconds(1));
        assertThat(changed.meta()).isEqualTo(Map.of("k", "v", "k2", "v2"));
    }

    @Test
    void toStringNamesNoMetaValue() {
        String s = RequestOptions.newBuilder().putMeta("auth", "s3cr3t").build().toString();
        assertThat(s).doesNotContain("s3cr3t").contains("meta keys=1");
    }

    @Test
    void clientBuilderValidatesItsSettings() {
        McpClient.Builder b = McpClient.newBuilder(dev.loommcp.testing.ScriptedTransport.create(
                dev.loommcp.testing.ScriptedTransport.Mode.INLINE));
        assertThatThrownBy(() -> b.requestTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.connectTimeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.requestTimeout(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.maxListPages(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.notificationQueueCapacity(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.notificationQueueBytes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notificationQueueBytes");
        assertThatThrownBy(() -> b.listenerQueueCapacity(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listenerQueueCapacity");
        assertThatThrownBy(() -> b.listenerQueueBytes(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listenerQueueBytes");
        assertThatThrownBy(() -> b.outputSchemaValidation(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.clientInfo(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.rootsHandler(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> McpClient.newBuilder(null)).isInstanceOf(NullPointerException.class);
    }

    /** Found by a fresh user: these were accepted and sent a request that timed out at once, or built empty options. */
    @Test
    void aNonPositiveMaximumAndNullShortcutsAreRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestOptions.newBuilder()
                .resetTimeoutOnProgress(java.time.Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxTotal");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestOptions.newBuilder()
                .resetTimeoutOnProgress(java.time.Duration.ofSeconds(-5))).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestOptions.ofTimeout(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestOptions.ofDeadline(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("deadline");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestOptions.ofToken(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("token");
        org.assertj.core.api.Assertions.assertThat(RequestOptions.newBuilder().resendOnSessionExpiry(true).build()
                .toString()).contains("resendOnSessionExpiry=true");
    }
}
