package dev.loommcp.auth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A {@link TokenStore} in one JSON file in a directory, shared safely by the threads of this process and by other
 * processes: every operation takes an exclusive file lock ({@code FileChannel.lock}) on a lock file next to it
 * ({@code tokens.json.lock}; within this JVM, a lock per file first), re-reads the file ({@code tokens.json}) and,
 * when it changes it, replaces it atomically (a temporary file {@code tokens.json.tmp} in the same directory, forced
 * to disk, then an atomic move): readers and other processes see the whole old or the whole new content, and a
 * crash mid-write loses nothing. The {@code remove...} operations compare with the file's current content, so a
 * token another process has just rotated is never removed by a stale caller; {@code replaceTokens} and
 * {@code registerIfAbsent} compare and set in the same way, and the refresh lease ({@link #leaseRefresh}) is kept in the
 * file, so two processes sharing it never refresh one token set at once. Operations wait for the locks at most
 * 30 seconds (then fail: a stopped process holding the lock never hangs this one); a virtual thread holds its
 * carrier only during the brief reads and writes, never while it waits.
 *
 * <p>Permissions: on POSIX file systems a directory the store creates is {@code rwx------} (an existing directory is
 * used as it is, never changed) and the files are created {@code rw-------}. On file systems with ACLs instead
 * (Windows) each gets an ACL that grants its owner alone full access; on file systems with neither (FAT, say), the
 * platform's defaults apply: choose a directory only you can read.
 *
 * <p>Failures after {@link #open}: every operation throws {@link java.io.UncheckedIOException} naming the file when
 * it cannot be locked, read or written, or when another program left it in a form this store cannot read (the file
 * is then left as is, never overwritten); the message never quotes the file's content. {@link #toString()} names the
 * file only.
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

    /**
     * {@inheritDoc}
     *
     * <p>In one atomic step.
     */
    @Override
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        return impl.replaceTokens(resource, expected, fresh);
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one atomic step.
     */
    @Override
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        return impl.registerIfAbsent(registration);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The lease is kept in the file (under its lock), so the processes sharing the directory exclude each other;
     * its expiry is on this machine's clock; fences count from 1 per key.
     */
    @Override
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder,
                                               java.time.Duration length) {
        return impl.leaseRefresh(resource, issuer, holder, length);
    }

    @Override
    public boolean releaseRefresh(RefreshLease lease) {
        return impl.releaseRefresh(lease);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Checks the fence in the same step, under the file lock.
     */
    @Override
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        return impl.replaceTokens(lease, expected, fresh);
    }

    @Override
    public String toString() {
        return "FileTokenStore[" + impl.file() + "]";
    }
}
