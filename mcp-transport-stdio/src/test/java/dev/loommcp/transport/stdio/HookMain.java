package dev.loommcp.transport.stdio;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;

/**
 * Run in a separate JVM by {@link StdioTransportTreeTest}: opens a transport for {@code hold-tree.sh} (given as the
 * argument), prints {@code PIDS <child> <grandchild>}, and returns from {@code main} without closing it, so only the
 * shutdown hook can end the tree.
 */
public final class HookMain {

    private HookMain() {
    }

    /**
     * Entry point.
     *
     * @param args the script path
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        StderrLines lines = new StderrLines();
        StdioTransport t = StdioTransport.newBuilder("sh", args[0]).stderrListener(lines).build();
        t.open(TransportContext.of(new TransportSink() {
            @Override
            public void onMessage(JsonRpcMessage message) {
            }

            @Override
            public void onClosed(McpTransportException cause) {
            }
        }, Deadline.NONE));
        long grandchild = lines.awaitNumber("GRANDCHILD");
        System.out.println("PIDS " + t.pid().orElseThrow() + " " + grandchild);
        System.out.flush();
    }
}
