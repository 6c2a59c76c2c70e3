package dev.loommcp.internal.session;

import dev.loommcp.spi.McpTransport;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transports already handed to a client, by identity and held weakly (a transport serves one client, once): a
 * second client built over the same transport is refused at build time, before its connect could open or close the
 * first client's transport. A claimed transport stays claimed until it is garbage. Thread-safe: one lock, no I/O and
 * no user code under it ({@link McpTransport#describe()} is called outside it).
 */
public final class TransportClaims {

    private static final ReentrantLock LOCK = new ReentrantLock();
    /** Identity hash to the claimed transports with it; guarded by {@link #LOCK}. */
    private static final Map<Integer, List<Claim>> CLAIMED = new HashMap<>();
    private static final ReferenceQueue<McpTransport> CLEARED = new ReferenceQueue<>();

    private TransportClaims() {
    }

    /** A weak hold on a claimed transport that remembers its identity hash, to be removed once cleared. */
    private static final class Claim extends WeakReference<McpTransport> {
        final int hash;

        Claim(McpTransport transport) {
            super(transport, CLEARED);
            this.hash = System.identityHashCode(transport);
        }
    }

    /**
     * Claims a transport for a new client.
     *
     * @param transport the transport
     * @throws IllegalStateException if another client already claimed this transport
     */
    public static void claim(McpTransport transport) {
        boolean taken;
        LOCK.lock();
        try {
            purge();
            List<Claim> same = CLAIMED.computeIfAbsent(System.identityHashCode(transport), h -> new ArrayList<>(1));
            taken = same.stream().anyMatch(c -> c.get() == transport);
            if (!taken) {
                same.add(new Claim(transport));
            }
        } finally {
            LOCK.unlock();
        }
        if (taken) {
            throw new IllegalStateException("the transport " + transport.describe()
                    + " was already given to another McpClient; a transport serves one client, once: make a new"
                    + " transport for each client");
        }
    }

    /**
     * Gives a claim back (the client it was claimed for could not be built).
     *
     * @param transport the transport
     */
    public static void release(McpTransport transport) {
        LOCK.lock();
        try {
            int hash = System.identityHashCode(transport);
            List<Claim> same = CLAIMED.get(hash);
            if (same != null) {
                same.removeIf(c -> c.get() == transport);
                if (same.isEmpty()) {
                    CLAIMED.remove(hash);
                }
            }
        } finally {
            LOCK.unlock();
        }
    }

    /** Removes the claims of collected transports; under {@link #LOCK}. */
    private static void purge() {
        for (Reference<? extends McpTransport> r; (r = CLEARED.poll()) != null; ) {
            Claim claim = (Claim) r;
            List<Claim> same = CLAIMED.get(claim.hash);
            if (same != null) {
                same.remove(claim);
                if (same.isEmpty()) {
                    CLAIMED.remove(claim.hash);
                }
            }
        }
    }
}
