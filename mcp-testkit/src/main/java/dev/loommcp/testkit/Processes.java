package dev.loommcp.testkit;

import java.util.concurrent.TimeUnit;

/** Ending the server processes the launchers start. */
final class Processes {

    private Processes() {
    }

    /**
     * Ends a process and its children, bounded: TERM, up to 5 s, then KILL, up to 5 s. Keeps the interrupt status.
     *
     * @param process the process
     */
    static void end(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
