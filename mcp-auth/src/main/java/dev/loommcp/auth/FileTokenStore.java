package dev.loommcp.auth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A {@link TokenStore} in one JSON file in a directory, shared safely by the threads of this process and by other
 * processes: every operation takes an exclusive file lock ({@code FileChannel.lock}) on a lock file next to it,
 * re-reads the file and replaces it atomically (write to a temporary file, then an atomic move). The directory and
 * files are created owner-only ({@code rwx------} / {@code rw-------} on POSIX file systems). Operations block on
 * the lock (file I/O: they hold their carrier thread, briefly).
 *
 * <p>Thread-safe.
 */
public final class FileTokenStore implements TokenStore {

    private final dev.loommcp.auth.internal.FileStore impl;

    private FileTokenStore(dev.loommcp.auth.internal.FileStore impl) {
        this.impl = impl;
    }

    /**
     * Opens (creating when missing) the store in a directory.
     *
     * @param directory the directory (created owner-only when missing)
     * @return the store
     * @throws IOException if the directory cannot be created or the existing file cannot be read or is not a token
     *                     store (the message names the file; it never quotes its content)
     */
    public static FileTokenStore open(Path directory) throws IOException {
        return new FileTokenStore(dev.loommcp.auth.internal.FileStore.open(directory));
    }

    @Override
    public Optional<TokenSet> tokens(String resource, String issuer) {
        return impl.tokens(resource, issuer);
    }

    @Override
    public List<String> issuers(String resource) {
        return impl.issuers(resource);
    }

    @Override
    public void saveTokens(String resource, TokenSet tokens) {
        impl.saveTokens(resource, tokens);
    }

    @Override
    public boolean removeTokens(String resource, TokenSet expected) {
        return impl.removeTokens(resource, expected);
    }

    @Override
    public int removeAllTokens(String resource) {
        return impl.removeAllTokens(resource);
    }

    @Override
    public Optional<ClientRegistration> registration(String issuer) {
        return impl.registration(issuer);
    }

    @Override
    public void saveRegistration(ClientRegistration registration) {
        impl.saveRegistration(registration);
    }

    @Override
    public boolean removeRegistration(ClientRegistration expected) {
        return impl.removeRegistration(expected);
    }

    @Override
    public String toString() {
        return "FileTokenStore[" + impl.file() + "]";
    }
}
