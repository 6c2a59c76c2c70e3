package dev.loommcp.transport.http;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A sink that records what the transport delivers, standing in for the core. */
final class TestSink implements TransportSink {
    final LinkedBlockingQueue<JsonRpcMessage> queue = new LinkedBlockingQueue<>();
    final List<JsonRpcMessage> all = new CopyOnWriteArrayList<>();
    final List<String> skipped = new CopyOnWriteArrayList<>();
    volatile McpTransportException closedWith;
    volatile Consumer<JsonRpcMessage> onMessage = m -> { };

    @Override
    public void onMessage(JsonRpcMessage message) {
        all.add(message);
        queue.add(message);
        onMessage.accept(message);
    }

    @Override
    public void onSkipped(String problem) {
        skipped.add(problem);
    }

    @Override
    public void onClosed(McpTransportException cause) {
        closedWith = cause;
    }

    JsonRpcMessage next(Duration timeout) throws InterruptedException {
        JsonRpcMessage m = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (m == null) {
            throw new AssertionError("no message within " + timeout);
        }
        return m;
    }
}
