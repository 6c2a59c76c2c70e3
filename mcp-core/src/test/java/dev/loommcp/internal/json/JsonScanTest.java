package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonScan#stringStop}: eight bytes at a time, it stops exactly where a byte-by-byte scan stops, whatever the
 * stopping byte, its offset from the eight-byte steps, the bytes around it (neighbours of the quote and backslash
 * values, multi-byte UTF-8 bytes, bytes just above the control range) and where the range starts and ends.
 */
class JsonScanTest {

    private static final byte[] STOPS = {'"', '\\', 0x00, 0x01, 0x0a, 0x1f};
    private static final byte[] FILLERS = {'a', ' ', '!', '#', '[', ']', 0x7f, (byte) 0x80, (byte) 0xa2, (byte) 0xc3,
            (byte) 0xdc, (byte) 0xe9, (byte) 0xff};

    private static int byteByByte(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == '"' || b[i] == '\\' || (b[i] >= 0 && b[i] < 0x20)) {
                return i;
            }
        }
        return end;
    }

    @Test
    void everyStoppingByteIsFoundAtEveryOffsetAmongEveryFiller() {
        for (byte filler : FILLERS) {
            for (int length = 0; length <= 26; length++) {
                byte[] b = new byte[length];
                Arrays.fill(b, filler);
                assertThat(JsonScan.stringStop(b, 0, length)).isGreaterThanOrEqualTo(length);
                for (int at = 0; at < length; at++) {
                    for (byte stop : STOPS) {
                        b[at] = stop;
                        for (int from = 0; from <= Math.min(at + 1, length); from++) {
                            int expected = byteByByte(b, from, length);
                            int got = JsonScan.stringStop(b, from, length);
                            assertThat(expected < length ? got : Math.max(got, length))
                                    .as("filler %02x, length %d, stop %02x at %d, from %d", filler, length, stop, at,
                                            from)
                                    .isEqualTo(expected);
                        }
                        b[at] = filler;
                    }
                }
            }
        }
    }

    @Test
    void randomBytesAndRangesStopWhereAByteByByteScanStops() {
        Random random = new Random(20261201);
        for (int n = 0; n < 20_000; n++) {
            byte[] b = new byte[random.nextInt(64)];
            for (int i = 0; i < b.length; i++) {
                // mostly plain bytes, now and then a stopping one
                b[i] = random.nextInt(12) == 0 ? STOPS[random.nextInt(STOPS.length)]
                        : FILLERS[random.nextInt(FILLERS.length)];
            }
            int end = b.length == 0 ? 0 : random.nextInt(b.length + 1);
            int from = random.nextInt(end + 1);
            int expected = byteByByte(b, from, end);
            int got = JsonScan.stringStop(b, from, end);
            assertThat(expected < end ? got : Math.max(got, end)).as(Arrays.toString(b) + " " + from + ".." + end)
                    .isEqualTo(expected);
        }
    }
}
