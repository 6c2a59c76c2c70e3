package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.fail;

import dev.loommcp.testing.RecordingSink;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A stderr listener that lets a test wait for a line such as {@code GRANDCHILD 1234}. */
final class StderrLines implements Consumer<String> {

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    @Override
    public void accept(String line) {
        lines.add(line);
    }

    /** Waits for a line {@code <key> <number>} and returns the number. */
    long awaitNumber(String key) throws InterruptedException {
        long end = System.nanoTime() + RecordingSink.SOON.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("no stderr line " + key + " within " + RecordingSink.SOON);
            }
            if (line.startsWith(key + " ")) {
                return Long.parseLong(line.substring(key.length() + 1).strip());
            }
        }
    }
}
