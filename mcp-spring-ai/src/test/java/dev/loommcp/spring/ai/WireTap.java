package dev.loommcp.spring.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Records the stdio transport's wire lines (its TRACE logger, through java.util.logging) while open. */
final class WireTap extends Handler implements AutoCloseable {

    private static final Logger WIRE = Logger.getLogger("dev.loommcp.transport.stdio.wire");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Level previous;

    WireTap() {
        previous = WIRE.getLevel();
        setLevel(Level.ALL);
        WIRE.setLevel(Level.ALL);
        WIRE.addHandler(this);
    }

    /** @return the lines written to servers ({@code ->}) so far */
    List<String> sent() {
        return lines.stream().filter(l -> l.startsWith("->")).toList();
    }

    @Override
    public void publish(LogRecord r) {
        lines.add(r.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        WIRE.removeHandler(this);
        WIRE.setLevel(previous);
    }
}
