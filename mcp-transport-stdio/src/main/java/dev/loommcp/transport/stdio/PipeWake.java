package dev.loommcp.transport.stdio;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Ends a pipe thread's blocking read of a pipe that a process outside the child's tree still holds open (a daemon
 * that double-forked and called {@code setsid} keeps the server's stdout and stderr): no end of stream comes while
 * it lives, closing our stream does not interrupt a read(2) already blocked on it, and no signal can reach a Java
 * thread. On Linux the pipe can be opened a second time for writing through {@code /proc/self/fd}: one byte written
 * there returns the blocked read, and the reader, told beforehand that the pipes are abandoned, stops. Elsewhere
 * ({@code /proc} missing) this does nothing and the thread ends when the last holder of the pipe exits.
 *
 * <p>Stateless and thread-safe.
 */
final class PipeWake {

    private static final Path PROC = Path.of("/proc");

    private PipeWake() {
    }

    /**
     * Names the pipe that a process has as one of its descriptors: the link text {@code pipe:[inode]}, the same for
     * both ends of a pipe.
     *
     * @param pid the process (the child, right after its start)
     * @param fd  its descriptor: 1 for stdout, 2 for stderr
     * @return the pipe's name, or {@code null} when it cannot be read (no {@code /proc}, the process is gone, not a
     *         pipe)
     */
    static String pipeOf(long pid, int fd) {
        if (Launch.OS != Launch.Os.LINUX) {
            return null;
        }
        try {
            String link = Files.readSymbolicLink(PROC.resolve(Long.toString(pid)).resolve("fd")
                    .resolve(Integer.toString(fd))).toString();
            return link.startsWith("pipe:") ? link : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Writes one newline into the pipe whose read end this process holds, found among its own descriptors by the
     * pipe's name, so that a thread blocked reading it returns.
     *
     * @param pipe the pipe's name from {@link #pipeOf}, or {@code null} (then nothing is done)
     * @return whether the byte was written
     */
    static boolean wake(String pipe) {
        if (pipe == null) {
            return false;
        }
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve("self").resolve("fd"))) {
            for (Path fd : fds) {
                String link;
                try {
                    link = Files.readSymbolicLink(fd).toString();
                } catch (IOException | RuntimeException e) {
                    continue; // closed meanwhile (the directory stream's own descriptor among them)
                }
                if (link.equals(pipe)) {
                    // a new open file description of the same pipe, for writing; the pipe has room: its reader waits
                    try (FileOutputStream out = new FileOutputStream(fd.toString())) {
                        out.write('\n');
                        return true;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }
}
