package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.RequestId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/** A bounded set of recently seen ids (oldest evicted first). Thread-safe. */
final class SeenIds {
    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashMap<RequestId, Boolean> ids;

    SeenIds(int capacity) {
        ids = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<RequestId, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    boolean add(RequestId id) {
        lock.lock();
        try {
            return ids.put(id, Boolean.TRUE) == null;
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            ids.clear();
        } finally {
            lock.unlock();
        }
    }
}
