package dev.loommcp.auth;

import dev.loommcp.Deadline;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Supplies a signed assertion (a JWT) on demand: a workload identity token for the JWT-bearer grant (RFC 7523
 * section 2.1; workload identity federation), or the ID token an enterprise identity provider exchanges (RFC 8693).
 * Called each time a token is needed, so a source that rotates (a projected Kubernetes service-account token, say)
 * is read fresh.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface AssertionSource {

    /**
     * Returns the current assertion.
     *
     * @param deadline how long the caller waits at most
     * @return the assertion (compact JWS), not blank
     * @throws IOException          if it cannot be read
     * @throws InterruptedException if interrupted
     */
    String assertion(Deadline deadline) throws IOException, InterruptedException;

    /**
     * A fixed assertion.
     *
     * @param assertion the assertion
     * @return the source
     * @throws NullPointerException if {@code assertion} is {@code null}
     */
    static AssertionSource of(String assertion) {
        Objects.requireNonNull(assertion, "assertion");
        return new AssertionSource() {
            @Override
            public String assertion(Deadline deadline) {
                return assertion;
            }

            @Override
            public String toString() {
                return "AssertionSource[<redacted>]";
            }
        };
    }

    /**
     * An assertion read from a file at each use (surrounding whitespace removed).
     *
     * @param file the file
     * @return the source
     * @throws NullPointerException if {@code file} is {@code null}
     */
    static AssertionSource file(Path file) {
        Objects.requireNonNull(file, "file");
        return new AssertionSource() {
            @Override
            public String assertion(Deadline deadline) throws IOException {
                String s = java.nio.file.Files.readString(file).strip();
                if (s.isEmpty()) {
                    throw new IOException("the assertion file " + file + " is empty");
                }
                return s;
            }

            @Override
            public String toString() {
                return "AssertionSource[file=" + file + "]";
            }
        };
    }
}
