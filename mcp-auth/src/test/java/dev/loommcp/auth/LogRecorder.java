package dev.loommcp.auth;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Records every line logged under {@code dev.loommcp.auth} (at any level) while open. The test module does not read
 * java.logging: {@link McpOAuthFlowTest} adds the read before it first uses this class.
 */
final class LogRecorder extends Handler implements AutoCloseable {

    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger("dev.loommcp.auth");
    private final Level before;

    LogRecorder() {
        before = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord r) {
        lines.add(new SimpleFormatter().formatMessage(r));
        if (r.getThrown() != null) {
            lines.add(String.valueOf(r.getThrown()));
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
