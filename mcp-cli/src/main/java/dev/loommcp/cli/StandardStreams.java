package dev.loommcp.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Standard output and error as a Unix tool treats them when the reader of a pipe goes away ({@code mcp tools | head
 * -2}): the JVM ignores SIGPIPE, so a write to such a pipe fails with {@code EPIPE} instead of ending the process.
 * The first such failure, on either stream, makes the command end quietly as SIGPIPE would have: every later write to
 * both streams is dropped (no message about it), the running command is interrupted when the write came from another
 * thread (a {@code listen} note from the client's handler thread: the command then closes its client and stops), and
 * {@code main} exits with {@link #EXIT_STATUS} (128 + SIGPIPE's number 13, what a shell shows for a tool SIGPIPE
 * killed). Any other write failure (a full disk) is left to the stream's error flag as before.
 *
 * <p>Thread-safe: the streams are written from the command's thread, the client's handler thread and the logger.
 */
final class StandardStreams {

    /** The exit status after a write to a closed pipe: 141, as for a process that SIGPIPE ended. */
    static final int EXIT_STATUS = ExitCodes.PIPE_CLOSED;

    private static final AtomicBoolean PIPE_CLOSED = new AtomicBoolean();
    private static volatile Thread command;

    private StandardStreams() {
    }

    /**
     * Replaces {@code System.out} and {@code System.err} with streams that notice a closed pipe, in {@code charset}
     * (what the JVM's own streams use). Call before anything captures the old ones (the logger's console handler).
     *
     * @param commandThread the thread that runs the command, interrupted when another thread finds the pipe closed
     * @param charset       the streams' charset
     */
    static void install(Thread commandThread, Charset charset) {
        command = commandThread;
        System.setOut(new PrintStream(new PipeAware(new FileOutputStream(FileDescriptor.out)), true, charset));
        System.setErr(new PrintStream(new PipeAware(new FileOutputStream(FileDescriptor.err)), true, charset));
    }

    /**
     * Returns whether a write found standard output or error to be a pipe whose reader went away.
     *
     * @return whether the command is ending as SIGPIPE would end it
     */
    static boolean pipeClosed() {
        return PIPE_CLOSED.get();
    }

    /**
     * Tells whether a write failure is a closed pipe: {@code EPIPE} ("Broken pipe" on Linux and macOS) or Windows'
     * "The pipe is being closed" / "The pipe has been ended".
     *
     * @param e the failure
     * @return whether the reader of the pipe went away
     */
    static boolean isClosedPipe(IOException e) {
        String m = e.getMessage();
        if (m == null) {
            return false;
        }
        String s = m.toLowerCase(Locale.ROOT);
        return s.contains("broken pipe") || s.contains("pipe is being closed") || s.contains("pipe has been ended");
    }

    private static void closedPipe() {
        if (PIPE_CLOSED.compareAndSet(false, true)) {
            Thread c = command;
            if (c != null && c != Thread.currentThread()) {
                c.interrupt();
            }
        }
    }

    /** One standard stream: buffered, dropping everything once a pipe was found closed. */
    private static final class PipeAware extends OutputStream {
        private final OutputStream out;

        PipeAware(FileOutputStream fd) {
            this.out = new BufferedOutputStream(fd, 8192);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (PIPE_CLOSED.get()) {
                return;
            }
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                failed(e);
            }
        }

        @Override
        public void flush() throws IOException {
            if (PIPE_CLOSED.get()) {
                return;
            }
            try {
                out.flush();
            } catch (IOException e) {
                failed(e);
            }
        }

        private void failed(IOException e) throws IOException {
            if (!isClosedPipe(e)) {
                throw e;
            }
            closedPipe();
        }
    }
}
