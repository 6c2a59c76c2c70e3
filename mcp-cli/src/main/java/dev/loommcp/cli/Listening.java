package dev.loommcp.cli;

import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.json.Json;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@code listen} command's work: opens a subscription ({@link McpClient#listen}) and prints each notification as
 * it arrives, one line each, until the command is interrupted (Ctrl+C, SIGTERM: the subscription and then the client
 * are closed) or the subscription ends.
 *
 * <p>The client's listener thread only queues what the subscription delivers; the command's own thread prints it, so
 * output keeps its order and an interrupt is seen at once. Not thread-safe apart from that queue: one instance serves
 * one command.
 */
final class Listening {

    /** How often the command checks, while nothing arrives, that the client is still connected. */
    static final long CONNECTED_CHECK_MILLIS = 1_000;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /** What the subscription told us, in order. */
    private sealed interface Event {
    }

    private record Arrived(JsonRpcMessage.Notification notification) implements Event {
    }

    private record Interrupted(McpException cause) implements Event {
    }

    private record Reestablished(SubscriptionFilter acknowledged) implements Event {
    }

    private record Ended(McpException cause) implements Event {
    }

    private final Output io;
    private final boolean json;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();

    /**
     * Creates the command's work.
     *
     * @param io   where to print
     * @param json whether to print each notification as one line of JSON
     */
    Listening(Output io, boolean json) {
        this.io = io;
        this.json = json;
    }

    /**
     * Opens the subscription and prints what it delivers until it ends or the thread is interrupted.
     *
     * @param client the connected client
     * @param filter what to listen for
     * @return {@link ExitCodes#OK} when the server ended the subscription; {@link ExitCodes#PIPE_CLOSED} when standard
     *         output turned out to be a pipe whose reader went away ({@link StandardStreams})
     * @throws McpException         when opening it failed, or it ended with a failure (the client gave up
     *                              re-establishing it, the connection was lost)
     * @throws InterruptedException when the command is interrupted (Ctrl+C); the subscription is closed first
     */
    int run(McpClient client, SubscriptionFilter filter) throws InterruptedException {
        Subscription subscription = client.listen(filter, new Queueing(), RequestOptions.DEFAULT);
        try {
            reportRefused(subscription.refused());
            if (subscription.acknowledged().isEmpty()) {
                io.err().println("mcp: nothing to listen for (the server acknowledged none of it)");
                io.err().flush();
                return ExitCodes.OK;
            }
            io.err().println("mcp: listening for " + describe(subscription.acknowledged())
                    + " (Ctrl+C to stop)");
            io.err().flush();
            while (true) {
                Event event = events.poll(CONNECTED_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                if (event == null) {
                    if (!client.isConnected() && events.isEmpty()) {
                        io.err().println("mcp: the connection closed; the subscription ended");
                        io.err().flush();
                        return ExitCodes.TRANSPORT;
                    }
                    continue;
                }
                switch (event) {
                    case Arrived a -> {
                        print(a.notification());
                        if (StandardStreams.pipeClosed()) {
                            // the reader of our output went away (listen | head): end as SIGPIPE would, quietly
                            return ExitCodes.PIPE_CLOSED;
                        }
                    }
                    case Interrupted i -> {
                        io.err().println("mcp: the subscription's stream broke ("
                                + TerminalText.cap(String.valueOf(i.cause() == null ? null : i.cause().getMessage()))
                                + "); re-establishing it; what is sent meanwhile is lost");
                        io.err().flush();
                    }
                    case Reestablished r -> {
                        io.err().println("mcp: listening again for " + describe(r.acknowledged()));
                        reportRefused(filter.minus(r.acknowledged()));
                        io.err().flush();
                    }
                    case Ended e -> {
                        io.out().flush();
                        if (e.cause() != null) {
                            throw e.cause();
                        }
                        io.err().println("mcp: the server ended the subscription");
                        io.err().flush();
                        return ExitCodes.OK;
                    }
                }
            }
        } finally {
            io.out().flush();
            subscription.close();
        }
    }

    private void reportRefused(SubscriptionFilter refused) {
        if (!refused.isEmpty()) {
            io.err().println("mcp: the server refused: " + describe(refused));
        }
    }

    /** Prints one notification: one line of text, or with {@code --json} one line of JSON. */
    private void print(JsonRpcMessage.Notification n) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", n.method());
            if (n.params() != null) {
                m.put("params", n.params());
            }
            io.rawOut().println(TerminalText.jsonSafe(Json.write(m)));
            io.rawOut().flush();
            return;
        }
        io.out().println(LocalTime.now().format(TIME) + "  " + line(n));
        io.out().flush();
    }

    /**
     * Describes a notification on one line: {@code tools list changed}, {@code resource updated: URI}, or its method
     * and parameters (without {@code _meta}) for other kinds.
     *
     * @param n the notification
     * @return the line, control characters escaped
     */
    static String line(JsonRpcMessage.Notification n) {
        Map<String, Object> params = n.params() == null ? Map.of() : n.params();
        return switch (n.method()) {
            case "notifications/tools/list_changed" -> "tools list changed";
            case "notifications/prompts/list_changed" -> "prompts list changed";
            case "notifications/resources/list_changed" -> "resources list changed";
            case "notifications/resources/updated" -> "resource updated: " + Render.oneLine(String.valueOf(
                    params.get("uri")));
            default -> {
                Map<String, Object> shown = new LinkedHashMap<>(params);
                shown.remove("_meta");
                yield Render.oneLine(n.method()) + (shown.isEmpty() ? "" : " " + Render.oneLine(Json.write(shown)));
            }
        };
    }

    /**
     * Describes a filter in words, for example {@code tools list changes, updates of notes://all}.
     *
     * @param f the filter
     * @return the description; {@code nothing} for an empty filter
     */
    static String describe(SubscriptionFilter f) {
        List<String> parts = new ArrayList<>();
        if (f.toolsListChanged()) {
            parts.add("tools list changes");
        }
        if (f.promptsListChanged()) {
            parts.add("prompts list changes");
        }
        if (f.resourcesListChanged()) {
            parts.add("resources list changes");
        }
        for (String uri : f.resourceSubscriptions()) {
            parts.add("updates of " + Render.oneLine(uri));
        }
        return parts.isEmpty() ? "nothing" : String.join(", ", parts);
    }

    /** Queues what the subscription delivers for the command's thread. */
    private final class Queueing implements SubscriptionListener {
        @Override
        public void onNotification(JsonRpcMessage.Notification notification) {
            events.add(new Arrived(notification));
        }

        @Override
        public void onInterrupted(McpException cause) {
            events.add(new Interrupted(cause));
        }

        @Override
        public void onReestablished(SubscriptionFilter acknowledged) {
            events.add(new Reestablished(acknowledged));
        }

        @Override
        public void onEnded(McpException cause) {
            events.add(new Ended(cause));
        }
    }
}
