package dev.loommcp.hosts;

import java.util.function.Consumer;

/** Registry listeners made from one lambda, for the hosts tests. */
final class Listeners {

    private Listeners() {
    }

    /** A listener that hears the state changes only. */
    static McpServersListener states(Consumer<ServerStateChange> onChange) {
        return new McpServersListener() {
            @Override
            public void onStateChanged(ServerStateChange change) {
                onChange.accept(change);
            }
        };
    }

    /** A listener that hears the completed tool re-lists only. */
    static McpServersListener tools(Consumer<String> onToolsListChanged) {
        return new McpServersListener() {
            @Override
            public void onToolsListChanged(String serverName) {
                onToolsListChanged.accept(serverName);
            }
        };
    }
}
