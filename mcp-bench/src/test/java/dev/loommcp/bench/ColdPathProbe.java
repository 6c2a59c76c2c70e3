package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.util.List;
import java.util.Map;

/**
 * Run in a fresh JVM by {@link ColdPathTest}: connects to the echo server over stdio and HTTP in both eras, lists the
 * tools, calls one and closes; exits 0 when every step answered as expected. Arguments: the echo server's command.
 */
public final class ColdPathProbe {

    private ColdPathProbe() {
    }

    /**
     * Runs the probe.
     *
     * @param args the echo server's command line
     * @throws Exception when a step fails (the JVM then exits non-zero)
     */
    public static void main(String[] args) throws Exception {
        List<String> server = List.of(args);
        for (boolean http : new boolean[] {false, true}) {
            for (ProtocolMode mode : new ProtocolMode[] {ProtocolMode.LEGACY, ProtocolMode.MODERN}) {
                HttpServerProcess process = http ? HttpServerProcess.start(server, false) : null;
                try {
                    McpTransport transport = http ? HttpTransport.newBuilder(process.endpoint()).build()
                            : StdioTransport.newBuilder(server).build();
                    try (McpClient client = McpClient.newBuilder(transport).protocolMode(mode).build()) {
                        client.connect();
                        String text = client.callTool("echo", Map.of("text", "cold")).text();
                        int tools = client.listTools(null).tools().size();
                        if (!"cold".equals(text) || tools != 2) {
                            throw new IllegalStateException((http ? "http " : "stdio ") + mode + ": echo " + text
                                    + ", " + tools + " tools");
                        }
                    }
                } finally {
                    if (process != null) {
                        process.close();
                    }
                }
            }
        }
        System.out.println("probe done");
        System.exit(0);
    }
}
