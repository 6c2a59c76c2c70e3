package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stderr ring's own accounting: bytes held and array size stay within the capacity, oldest lines go first. */
class StderrRingTest {

    @Test
    void manyOneByteLinesStayWithinTheCapacity() {
        int capacity = 4 * 1024 * 1024;
        StderrRing ring = new StderrRing(capacity);
        for (int i = 0; i < 10_000_000; i++) {
            ring.add(i % 2 == 0 ? "a" : "b");
        }
        assertThat(ring.sizeBytes()).isEqualTo(capacity);
        assertThat(ring.heapBytes()).isEqualTo(capacity);
        assertThat(ring.totalLines()).isEqualTo(10_000_000);
        assertThat(ring.lines()).hasSize(capacity / 2).endsWith("a", "b");
    }

    @Test
    void keepsTheNewestLinesInOrderAndGrowsOnlyAsNeeded() {
        StderrRing ring = new StderrRing(64 * 1024);
        ring.add("first");
        ring.add("");
        ring.add("third");
        assertThat(ring.lines()).containsExactly("first", "", "third");
        assertThat(ring.tail()).isEqualTo("first\n\nthird");
        assertThat(ring.heapBytes()).isLessThanOrEqualTo(1024);
        for (int i = 0; i < 10_000; i++) {
            ring.add("line " + i);
        }
        assertThat(ring.lines()).last().isEqualTo("line 9999");
        assertThat(ring.lines()).doesNotContain("first");
        assertThat(ring.sizeBytes()).isLessThanOrEqualTo(64 * 1024);
        assertThat(ring.heapBytes()).isEqualTo(64 * 1024);
    }

    @Test
    void aLineLongerThanTheCapacityKeepsItsBeginningCutAtACharacterBoundary() {
        StderrRing ring = new StderrRing(256);
        ring.add("old");
        String euros = "\u20ac".repeat(200);
        ring.add(euros);
        String kept = ring.tail();
        assertThat(kept).isNotEmpty().matches("\u20ac+");
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length + 1).isLessThanOrEqualTo(256);
        assertThat(ring.lines()).hasSize(1);
        ring.add("new");
        assertThat(ring.lines()).last().isEqualTo("new");
    }
}
