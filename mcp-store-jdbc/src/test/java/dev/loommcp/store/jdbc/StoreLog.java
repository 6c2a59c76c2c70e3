package dev.loommcp.store.jdbc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** The lines (and their causes' text) logged under {@code dev.loommcp} while open, at any level. */
final class StoreLog extends Handler implements AutoCloseable {

    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger("dev.loommcp");
    private final Level before;

    StoreLog() {
        before = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /** Everything logged, one string. */
    String all() {
        return String.join("\n", lines);
    }

    @Override
    public void publish(LogRecord r) {
        lines.add(r.getLevel() + " " + new SimpleFormatter().formatMessage(r));
        for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
            lines.add(String.valueOf(t));
        }
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
