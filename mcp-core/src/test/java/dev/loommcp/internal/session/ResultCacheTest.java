package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.ClientConfigs;
import dev.loommcp.McpClient;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.ScriptedTransport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The modern era's result cache holds a bounded amount (entries and bytes, oldest out first) and sweeps expired
 * entries while storing (issue 26 item 5: 400 reads of 100 KB with {@code ttlMs: 1} were all still held).
 */
class ResultCacheTest {

    private static final String KB100 = "x".repeat(100_000);

    private static Map<String, Object> read(String uri, String text, long ttlMs) {
        return Map.of("contents", List.of(Map.of("uri", uri, "text", text)), "resultType", "complete",
                "ttlMs", ttlMs);
    }

    /** The defaults of {@code McpClient.Builder#resultCacheLimits}. */
    private static final int DEFAULT_ENTRIES = 1024;
    private static final long DEFAULT_BYTES = 32L << 20;

    private static ResultCache cache(int entries, long bytes) {
        return new ResultCache(() -> true, entries, bytes);
    }

    @Test
    void expiredReadsOfOtherUrisAreSweptWhileStoring() throws Exception {
        ResultCache c = cache(DEFAULT_ENTRIES, DEFAULT_BYTES);
        for (int i = 0; i < 400; i++) {
            c.putRead("big://" + i, read("big://" + i, KB100, 1), c.generation());
        }
        assertThat(c.bytes()).isLessThanOrEqualTo(DEFAULT_BYTES);
        Thread.sleep(20); // every big entry has expired (ttlMs 1)
        for (int i = 0; i < 200; i++) {
            c.putRead("small://" + i, read("small://" + i, "s", 60_000), c.generation());
        }
        // none of the expired 100 KB reads is held any more, without anyone reading their URIs again
        assertThat(c.size()).isLessThanOrEqualTo(200);
        assertThat(c.bytes()).isLessThan(100_000);
        assertThat(c.read("small://199")).isNotNull();
    }

    @Test
    void theEntryBoundDropsTheOldestFirst() {
        ResultCache c = cache(10, Long.MAX_VALUE);
        for (int i = 0; i < 400; i++) {
            c.putRead("r://" + i, read("r://" + i, "v", 60_000), c.generation());
        }
        assertThat(c.size()).isEqualTo(10);
        assertThat(c.read("r://389")).isNull();
        assertThat(c.read("r://390")).isNotNull();
        assertThat(c.read("r://399")).isNotNull();
    }

    @Test
    void theByteBoundDropsTheOldestFirstAndKeepsNothingAloneAboveIt() {
        ResultCache c = cache(1000, 1_000_000);
        for (int i = 0; i < 400; i++) {
            c.putRead("r://" + i, read("r://" + i, KB100, 60_000), c.generation());
        }
        assertThat(c.bytes()).isLessThanOrEqualTo(1_000_000);
        assertThat(c.size()).isBetween(1, 9);
        assertThat(c.read("r://399")).isNotNull();
        assertThat(c.read("r://0")).isNull();

        c.putRead("r://399", read("r://399", "y".repeat(1_000_001), 60_000), c.generation());
        assertThat(c.read("r://399")).as("alone above the budget, and the older result is gone too").isNull();
        assertThat(c.bytes()).isLessThanOrEqualTo(1_000_000);
    }

    @Test
    void theByteCountFollowsReplacementsRemovalsAndClear() {
        ResultCache c = cache(1000, 10_000_000);
        c.putRead("a://1", read("a://1", KB100, 60_000), c.generation());
        long one = c.bytes();
        assertThat(one).isGreaterThan(100_000);
        c.putRead("a://1", read("a://1", KB100, 60_000), c.generation());
        assertThat(c.bytes()).isEqualTo(one);
        c.putPages("tools/list", List.of(Map.of("tools", List.of(), "ttlMs", 60_000)), c.generation());
        assertThat(c.size()).isEqualTo(2);
        c.onNotification(new JsonRpcMessage.Notification("notifications/resources/updated", Map.of("uri", "a://1")));
        assertThat(c.size()).isEqualTo(1);
        assertThat(c.bytes()).isLessThan(one).isPositive();
        c.clear();
        assertThat(c.size()).isZero();
        assertThat(c.bytes()).isZero();
    }

    @Test
    void boundsBelowOneAreRefused() {
        McpClient.Builder b = McpClient.newBuilder(ScriptedTransport.create(ScriptedTransport.Mode.INLINE));
        assertThatThrownBy(() -> b.resultCacheLimits(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entries");
        assertThatThrownBy(() -> b.resultCacheLimits(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytes");
    }
}
