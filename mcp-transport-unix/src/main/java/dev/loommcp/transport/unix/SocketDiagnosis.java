package dev.loommcp.transport.unix;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * Why a connection to a unix socket failed, in words for the user: the socket file is missing, is not a socket, may
 * not be opened, or nothing listens on it. Looks at the file after the failure (the failure's own message is the
 * operating system's and says less). Stateless.
 */
final class SocketDiagnosis {

    /** {@code S_IFMT} and {@code S_IFSOCK} of {@code st_mode}. */
    private static final int TYPE_MASK = 0170000;
    private static final int SOCKET = 0140000;

    private SocketDiagnosis() {
    }

    static String reason(Path socket, Throwable failure) {
        String os = failure.getMessage() == null ? "" : failure.getMessage().toLowerCase(Locale.ROOT);
        if (Files.notExists(socket)) {
            return "no such file (is the server running and listening there?)";
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(socket, BasicFileAttributes.class);
        } catch (AccessDeniedException e) {
            return "permission denied (a directory on the path may not be searched)";
        } catch (IOException e) {
            return Files.exists(socket, LinkOption.NOFOLLOW_LINKS) ? "cannot read the file's attributes"
                    : "permission denied (a directory on the path may not be searched)";
        }
        if (attrs.isDirectory()) {
            return "it is a directory, not a socket";
        }
        if (attrs.isRegularFile()) {
            return "it is a regular file, not a socket";
        }
        if (!isSocket(socket)) {
            return "it is not a socket";
        }
        if (os.contains("permission denied") || os.contains("access denied") || !Files.isWritable(socket)) {
            return "permission denied (the socket may not be opened by this user)";
        }
        if (os.contains("refused")) {
            return "connection refused (nothing listens on it: a stale socket file?)";
        }
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }

    private static boolean isSocket(Path p) {
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            return mode instanceof Integer m && (m & TYPE_MASK) == SOCKET;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // no unix attribute view: a file that is neither regular nor a directory may well be a socket
            return true;
        }
    }
}
