package dev.loommcp.cli;

import dev.loommcp.event.ProgressListener;
import dev.loommcp.schema.ProgressNotification;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A one-line progress bar on stderr for calls that report progress (MCP "Progress"): redrawn in place with
 * {@code \r} on each {@code notifications/progress}, and erased when the call ends. When disabled it draws nothing,
 * so it can always be passed as the call's progress listener.
 *
 * <p>Thread-safe: the client calls {@link #onProgress} on its event thread while the caller calls {@link #finish}.
 */
final class ProgressBar implements ProgressListener {

    private static final int BAR = 30;

    private final PrintWriter err;
    private final boolean enabled;
    private final int width;
    private final ReentrantLock lock = new ReentrantLock();
    private int drawn;
    private boolean finished;

    /**
     * Creates a bar.
     *
     * @param err     where to draw
     * @param enabled whether to draw at all
     * @param width   the line width (the drawn line is cut to it)
     */
    ProgressBar(PrintWriter err, boolean enabled, int width) {
        this.err = err;
        this.enabled = enabled;
        this.width = Math.max(20, width);
    }

    /**
     * Draws the bar for one progress notification. Never throws: this runs on the client's event thread, and a
     * failure to draw (even an {@link Error}) must not end the delivery of later notifications.
     *
     * @param p the notification
     */
    @Override
    public void onProgress(ProgressNotification p) {
        if (!enabled) {
            return;
        }
        try {
            String line = Render.truncate(format(p), width - 1);
            int lineWidth = TerminalText.displayWidth(line);
            lock.lock();
            try {
                if (finished) {
                    return;
                }
                err.print("\r" + line + " ".repeat(Math.max(0, drawn - lineWidth)));
                err.flush();
                drawn = lineWidth;
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException | Error e) {
            // a bar that cannot be drawn is left out; the call goes on
        }
    }

    /**
     * Erases the bar, if one was drawn, so that the result starts on a clean line. Progress reported later (the
     * client delivers notifications on its own thread) is ignored.
     */
    void finish() {
        lock.lock();
        try {
            finished = true;
            if (drawn > 0) {
                err.print("\r" + " ".repeat(drawn) + "\r");
                err.flush();
                drawn = 0;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Formats one progress notification: a bar and a percentage when the total is known, the raw count otherwise,
     * then the message.
     *
     * @param p the notification
     * @return the line, without a line break
     */
    static String format(ProgressNotification p) {
        StringBuilder sb = new StringBuilder();
        Double total = p.total();
        if (total != null && total > 0) {
            double f = Math.max(0, Math.min(1, p.progress() / total));
            int full = (int) Math.round(f * BAR);
            sb.append('[').append("#".repeat(full)).append("-".repeat(BAR - full)).append("] ")
                    .append(String.format(Locale.ROOT, "%3d%%", Math.round(f * 100)))
                    .append(" (").append(number(p.progress())).append('/').append(number(total)).append(')');
        } else {
            sb.append("progress ").append(number(p.progress()));
        }
        if (p.message() != null && !p.message().isBlank()) {
            sb.append("  ").append(Render.oneLine(p.message()));
        }
        return sb.toString();
    }

    private static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
