package dev.loommcp.hosts;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records every state change of a registry; {@link #await} waits for one (the hosts tests' listener). */
final class Changes implements McpServersListener {
    final List<ServerStateChange> all = new CopyOnWriteArrayList<>();
    final BlockingQueue<ServerStateChange> queue = new LinkedBlockingQueue<>();

    @Override
    public void onStateChanged(ServerStateChange change) {
        all.add(change);
        queue.add(change);
    }

    ServerStateChange await(String server, ServerState state) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            ServerStateChange c = queue.poll(1, TimeUnit.SECONDS);
            if (c != null && c.server().equals(server) && c.state() == state) {
                return c;
            }
        }
        throw new AssertionError("no change of " + server + " to " + state + "; seen " + all);
    }

    List<ServerState> statesOf(String server) {
        return all.stream().filter(c -> c.server().equals(server)).map(ServerStateChange::state).toList();
    }
}
