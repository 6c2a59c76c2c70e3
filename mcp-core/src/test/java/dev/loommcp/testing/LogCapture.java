package dev.loommcp.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects the messages a {@code java.util.logging} logger (where {@link System.Logger} goes by default) receives at
 * WARNING or above, for tests that assert what is reported. Close it to detach.
 *
 * <p>The tests run in the module {@code dev.loommcp.core}, which does not read {@code java.logging}; the read edge is
 * added at run time before any logging class is touched, and no logging type appears in this class's signatures.
 */
public final class LogCapture implements AutoCloseable {

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final AutoCloseable detach;

    private LogCapture(String loggerName) {
        LogCapture.class.getModule().addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
        this.detach = new Collector(warnings).install(loggerName);
    }

    /**
     * Starts collecting.
     *
     * @param loggerName the logger, for example {@code dev.loommcp.client}
     * @return the capture
     */
    public static LogCapture warnings(String loggerName) {
        return new LogCapture(loggerName);
    }

    /**
     * Returns the messages collected so far, oldest first.
     *
     * @return the messages
     */
    public List<String> messages() {
        return List.copyOf(warnings);
    }

    @Override
    public void close() throws Exception {
        detach.close();
    }

    /** Loaded only after the read edge exists. */
    private static final class Collector extends java.util.logging.Handler {
        private final List<String> sink;

        Collector(List<String> sink) {
            this.sink = sink;
        }

        AutoCloseable install(String loggerName) {
            java.util.logging.Logger logger = java.util.logging.Logger.getLogger(loggerName);
            logger.addHandler(this);
            return () -> logger.removeHandler(this);
        }

        @Override
        public void publish(java.util.logging.LogRecord r) {
            if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                sink.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
