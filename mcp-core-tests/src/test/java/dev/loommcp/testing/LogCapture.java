package dev.loommcp.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Records what loom-mcp logs through {@link System.Logger} (which the JDK routes to {@code java.util.logging}) under
 * the given logger names, for the duration of each test. Register it as an instance field, or open one for a block
 * with {@link #warnings(String)} and close it.
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback, AutoCloseable {

    static {
        // the tests are patched into dev.loommcp.core, which does not read java.logging; only code of a module may
        // add reads to it, and this must happen before the Handler subclass Recorder is loaded: nothing in this
        // class's signatures or fields names it, so the verifier does not load it with this class
        LogCapture.class.getModule().addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
    }

    /**
     * One logged record, rendered.
     *
     * @param level   the JUL level ({@code WARNING}, {@code FINEST} for TRACE...)
     * @param message the message
     * @param thrown  the thrown exception rendered with its stack trace, or {@code ""}
     */
    public record Entry(Level level, String message, String thrown) {
        /**
         * Returns the message and the rendered exception together.
         *
         * @return the text
         */
        public String text() {
            return message + "\n" + thrown;
        }
    }

    private final List<String> names;
    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final List<Logger> loggers = new CopyOnWriteArrayList<>();
    /** A {@link Recorder}, typed {@code Object} so that loading this class does not load it (see above). */
    private final Object handler = new Recorder(entries);

    /**
     * Creates the extension.
     *
     * @param names the logger names to record
     */
    public LogCapture(String... names) {
        this.names = List.of(names);
    }

    /**
     * Starts recording one logger at once, until {@link #close()}.
     *
     * @param loggerName the logger, for example {@code dev.loommcp.client}
     * @return the capture, recording
     */
    public static LogCapture warnings(String loggerName) {
        LogCapture capture = new LogCapture(loggerName);
        capture.beforeEach(null);
        return capture;
    }

    /** Stops recording (what {@link #warnings(String)} started). */
    @Override
    public void close() {
        afterEach(null);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        entries.clear();
        for (String name : names) {
            Logger l = Logger.getLogger(name);
            l.addHandler((Handler) handler);
            loggers.add(l); // held: JUL keeps loggers weakly
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (Logger l : loggers) {
            l.removeHandler((Handler) handler);
        }
        loggers.clear();
    }

    /**
     * Returns the records at {@code WARNING} or above.
     *
     * @return a snapshot
     */
    public List<Entry> warnings() {
        return entries.stream().filter(e -> e.level().intValue() >= Level.WARNING.intValue()).toList();
    }

    /**
     * Returns the messages of the records at {@code WARNING} or above, oldest first.
     *
     * @return a snapshot
     */
    public List<String> messages() {
        return warnings().stream().map(Entry::message).toList();
    }

    /** The JUL handler that renders records into entries. */
    private static final class Recorder extends Handler {
        private final List<Entry> entries;

        Recorder(List<Entry> entries) {
            this.entries = entries;
        }

        @Override
        public void publish(LogRecord r) {
            String thrown = "";
            if (r.getThrown() != null) {
                java.io.StringWriter w = new java.io.StringWriter();
                r.getThrown().printStackTrace(new java.io.PrintWriter(w));
                thrown = w.toString();
            }
            String message = r.getMessage();
            if (r.getParameters() != null && r.getParameters().length > 0) {
                message = java.text.MessageFormat.format(message, r.getParameters());
            }
            entries.add(new Entry(r.getLevel(), message, thrown));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
