package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The clients of one tasks test: each built over a recorded transport from {@link #newTransport()} with an
 * {@link McpTasks} installed, in the class's {@link #mode()}; all closed after the test (and checked for leftovers
 * by {@link LeakCheck}). Subclasses say which server and transport.
 */
@ExtendWith(LeakCheck.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TaskClients {

    /** The extension's key in {@code clientCapabilities.extensions}. */
    static final String EXTENSION = "io.modelcontextprotocol/tasks";

    /** A client and its tasks. */
    record Connected(McpClient client, McpTasks tasks, RecordingTransport recording) {

        /** Returns the requests the client sent, in order. */
        List<JsonRpcMessage.Request> requests() {
            List<JsonRpcMessage.Request> out = new ArrayList<>();
            for (JsonRpcMessage m : recording.sent()) {
                if (m instanceof JsonRpcMessage.Request r) {
                    out.add(r);
                }
            }
            return out;
        }

        /** Returns the requests with the given method, in order. */
        List<JsonRpcMessage.Request> requests(String method) {
            return requests().stream().filter(r -> r.method().equals(method)).toList();
        }

        /**
         * Returns the {@code notifications/cancelled} the client sent for anything but a
         * {@code subscriptions/listen} (over stdio that notification is how a listen ends; for a task it is never
         * sent, C.5.8).
         */
        List<JsonRpcMessage.Notification> cancelledRequests() {
            List<String> listens = requests("subscriptions/listen").stream()
                    .map(r -> String.valueOf(r.id().value())).toList();
            return notifications("notifications/cancelled").stream()
                    .filter(n -> !listens.contains(String.valueOf(n.params().get("requestId")))).toList();
        }

        /** Returns the notifications the client sent with the given method. */
        List<JsonRpcMessage.Notification> notifications(String method) {
            return recording.sentNotifications(method);
        }
    }

    private final List<McpClient> clients = new CopyOnWriteArrayList<>();

    /** Returns a new transport to the class's server. */
    protected abstract McpTransport newTransport() throws Exception;

    /** Returns the protocol mode of the class's clients. */
    protected abstract ProtocolMode mode();

    /** Builds and connects a client with tasks ({@code tasks} customizes them, {@code client} the client). */
    Connected connect(Consumer<McpTasks.Builder> tasks, Consumer<McpClient.Builder> client) throws Exception {
        McpTasks.Builder tb = McpTasks.newBuilder();
        tasks.accept(tb);
        McpTasks t = tb.build();
        RecordingTransport recording = new RecordingTransport(newTransport());
        McpClient.Builder b = McpClient.newBuilder(recording)
                .protocolMode(mode())
                .probeTimeout(FixtureClients.PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30))
                .taskSupport(t.support());
        client.accept(b);
        McpClient c = b.build();
        clients.add(c);
        c.connect();
        return new Connected(c, t, recording);
    }

    Connected connect(Consumer<McpClient.Builder> client) throws Exception {
        return connect(t -> { }, client);
    }

    Connected connect() throws Exception {
        return connect(t -> { }, c -> { });
    }

    /** Builds and connects a client without task support, closed after the test. */
    McpClient connectWithoutTasks(RecordingTransport[] recorded) throws Exception {
        RecordingTransport recording = new RecordingTransport(newTransport());
        McpClient c = McpClient.newBuilder(recording)
                .protocolMode(mode())
                .probeTimeout(FixtureClients.PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30))
                .build();
        clients.add(c);
        c.connect();
        recorded[0] = recording;
        return c;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    /** The {@code _meta.clientCapabilities} of a sent request (modern era), or an empty map. */
    static Map<String, Object> clientCapabilities(JsonRpcMessage.Request r) {
        if (r.params() != null && r.params().get("_meta") instanceof Map<?, ?> meta
                && meta.get("io.modelcontextprotocol/clientCapabilities") instanceof Map<?, ?> caps) {
            return map(caps);
        }
        return Map.of();
    }

    /** Whether a sent request declares the tasks extension in its client capabilities. */
    static boolean declaresExtension(JsonRpcMessage.Request r) {
        return clientCapabilities(r).get("extensions") instanceof Map<?, ?> ext && ext.containsKey(EXTENSION);
    }

    @AfterEach
    void closeClients() {
        for (McpClient c : clients) {
            c.close();
            assertThat(c.pendingRequestCount()).isZero();
        }
        clients.clear();
    }
}
