package dev.loommcp.it.servers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The server processes the launchers start: their stderr logs and their end. */
final class Processes {

    /** How much of a server's stderr a launch failure quotes. */
    private static final int TAIL_CHARS = 2000;

    private Processes() {
    }

    /**
     * Creates a temporary file for a server's stderr (deleted by {@link #deleteQuietly}; a failed launch quotes its
     * end).
     *
     * @param name the server's name, for the file name
     * @return the file
     * @throws IOException if it cannot be created
     */
    static Path stderrLog(String name) throws IOException {
        Path log = Files.createTempFile("loommcp-" + name + "-", ".stderr.log");
        log.toFile().deleteOnExit();
        return log;
    }

    /**
     * Returns the end of a stderr log for a failure message: {@code ""} when empty or unreadable, else
     * {@code "; its stderr ends with: ..."}.
     *
     * @param log the file
     * @return the note
     */
    static String stderrNote(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                return "";
            }
            return "; its stderr ends with:\n" + (text.length() > TAIL_CHARS
                    ? text.substring(text.length() - TAIL_CHARS) : text);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * Deletes a file, ignoring failures.
     *
     * @param file the file, or {@code null}
     */
    static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a temporary file: deleteOnExit is the fallback
            }
        }
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
