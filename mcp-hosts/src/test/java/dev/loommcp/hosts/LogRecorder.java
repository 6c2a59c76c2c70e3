package dev.loommcp.hosts;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Records every record logged under {@code dev.loommcp} (every module of the SDK, at any level) while open, as its
 * level, formatted message and thrown exception (with its causes' messages). The tests are patched into
 * {@code dev.loommcp.hosts}, which does not read java.logging: a test class adds the read (in its static
 * initializer) before it first uses this class.
 */
final class LogRecorder extends Handler implements AutoCloseable {

    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger("dev.loommcp");
    private final Level before;

    LogRecorder() {
        before = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord r) {
        StringBuilder line = new StringBuilder(r.getLevel() + " " + new SimpleFormatter().formatMessage(r));
        for (Throwable t = r.getThrown(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            line.append(" | ").append(t);
        }
        lines.add(line.toString());
    }

    /** The lines at {@code level}. */
    List<String> at(Level level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(before);
    }
}
