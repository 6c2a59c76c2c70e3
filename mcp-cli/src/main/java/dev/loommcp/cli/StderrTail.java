package dev.loommcp.cli;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Receives the server's stderr lines: echoes them to our stderr when {@code --stderr} is given, and always keeps
 * the last {@value #MAX_LINES} lines (each cut to {@value #MAX_LINE_CHARS} characters) to show when the command
 * fails. Thread-safe: the transport calls {@link #accept} from its stderr reader while the command reads the tail.
 */
final class StderrTail implements Consumer<String> {

    static final int MAX_LINES = 20;
    static final int MAX_LINE_CHARS = 500;

    private final PrintWriter echo;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    /**
     * Creates the collector.
     *
     * @param echo where to echo each line as it arrives, or {@code null} to keep quiet
     */
    StderrTail(PrintWriter echo) {
        this.echo = echo;
    }

    /**
     * Takes one line of the server's stderr: echoes it (with {@code --stderr}) and keeps it. Never throws: this
     * runs on the transport's stderr reader, which must keep draining the pipe whatever happens here (a failed
     * echo, even an {@link Error}, only loses the echo).
     *
     * @param line the line, without its line end
     */
    @Override
    public void accept(String line) {
        if (echo != null) {
            try {
                echo.println(line);
                echo.flush();
            } catch (RuntimeException | Error e) {
                // the echo is lost; the line is still kept for the report
            }
        }
        String kept = line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + "..." : line;
        lock.lock();
        try {
            if (lines.size() == MAX_LINES) {
                lines.removeFirst();
            }
            lines.addLast(kept);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the kept lines joined with {@code '\n'}.
     *
     * @return the tail, empty when the server wrote nothing to stderr
     */
    String tail() {
        lock.lock();
        try {
            return String.join("\n", lines);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns whether {@code --stderr} echoes the lines (then the tail need not be shown again).
     *
     * @return whether lines are echoed
     */
    boolean echoes() {
        return echo != null;
    }
}
