package dev.loommcp.transport.stdio;

import java.util.List;

/**
 * Collects the WARNING messages of a java.util.logging logger for tests. The tests run inside
 * dev.loommcp.transport.stdio, which does not read java.logging: the read edge is added before any logging type is
 * loaded, and no logging type appears in a signature of this class (only in method bodies and in a nested class
 * created there), so nothing loads one before the edge exists.
 */
final class JulWarnings {

    static {
        JulWarnings.class.getModule().addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
    }

    private JulWarnings() {
    }

    /** Starts collecting; returns the handle for {@link #detach}. */
    static Object attach(String name, List<String> sink) {
        Object handler = new Collector(sink);
        java.util.logging.Logger.getLogger(name).addHandler((java.util.logging.Handler) handler);
        return handler;
    }

    /** Stops collecting. */
    static void detach(String name, Object handler) {
        java.util.logging.Logger.getLogger(name).removeHandler((java.util.logging.Handler) handler);
    }

    private static final class Collector extends java.util.logging.Handler {
        private final List<String> sink;

        Collector(List<String> sink) {
            this.sink = sink;
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
