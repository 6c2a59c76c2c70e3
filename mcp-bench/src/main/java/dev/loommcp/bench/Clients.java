package dev.loommcp.bench;

import dev.loommcp.config.ProtocolMode;
import java.util.List;

/** The clients under test, by name. */
final class Clients {

    /** Every client, the raw loop first (it is what the others are compared with). */
    static final List<String> ALL = List.of("raw", "loom", "sdk-async", "sdk-sync");

    /**
     * The era comparison ({@code --eras}): the raw loop and loom-mcp in each era, over stdio and over HTTP, against
     * the dual-era echo server. Each HTTP client is compared with the legacy HTTP raw loop, each stdio client with the
     * stdio one.
     */
    static final List<String> ERAS = List.of("raw", "raw-modern", "loom-legacy", "loom-modern", "raw-http",
            "raw-http-modern", "loom-http-legacy", "loom-http-modern");

    /** The HTTP clients against the echo server's SSE mode (each request answered as an SSE stream of one event). */
    static final List<String> SSE = List.of("raw-http-sse", "raw-http-modern-sse", "loom-http-legacy-sse",
            "loom-http-modern-sse");

    /**
     * The matrix (the default of {@code --quick} and {@code --full}): every client against the dual-era echo server,
     * grouped by transport (stdio, HTTP with JSON answers, HTTP with SSE answers), each group's raw loop first. The
     * peer SDKs speak the legacy era; the dual server answers it as before.
     */
    static final List<String> MATRIX = List.of(
            "raw", "loom", "loom-legacy", "loom-modern", "raw-modern", "sdk-async", "sdk-sync", "ts",
            "raw-http", "loom-http-legacy", "loom-http-modern", "raw-http-modern", "sdk-http", "ts-http",
            "raw-http-sse", "loom-http-legacy-sse", "loom-http-modern-sse", "sdk-http-sse", "ts-http-sse");

    /**
     * {@code --check}'s clients (CI): at least one of each kind (raw loop, loom-mcp, official SDK, TypeScript SDK) on
     * each transport, so that every driver is proven to work; 40 s to 70 s on a busy 2-core machine.
     */
    static final List<String> CHECK = List.of("raw", "loom", "sdk-async", "sdk-sync", "ts", "raw-http",
            "loom-http-legacy", "sdk-http", "ts-http", "loom-http-modern-sse");

    /**
     * The before/after comparison's clients ({@code --compare-with}, {@link Compare}): loom-mcp's rows of the matrix
     * (every transport and era it runs there), each run on both builds, and the matrix's raw loops, run once per
     * round as the same-run reference. Grouped by transport like {@link #MATRIX}.
     */
    static final List<String> COMPARE = List.of(
            "raw", "loom", "loom-legacy", "loom-modern", "raw-modern",
            "raw-http", "loom-http-legacy", "loom-http-modern", "raw-http-modern",
            "raw-http-sse", "loom-http-legacy-sse", "loom-http-modern-sse");

    /** Whether the client is a raw loop (no loom-mcp code: the same on both sides of a comparison). */
    static boolean isRaw(String name) {
        return name.startsWith("raw");
    }

    /**
     * The cost of the interceptor chain (issue 30, run by hand: {@code --clients loom,loom-icpt3,loom-otel}): loom-mcp
     * as {@code loom}, with three interceptors that only pass the request on, or with mcp-opentelemetry on an SDK
     * that exports nowhere (spans sampled and ended, metrics recorded, no processor or reader attached).
     */
    static final List<String> INTERCEPTED = List.of("loom-icpt3", "loom-otel");

    /** The transport groups of the matrix, in table order, each with its raw loop (the reference). */
    static final List<String> GROUPS = List.of("stdio", "HTTP, JSON answers", "HTTP, SSE answers");

    private Clients() {
    }

    /** Whether the client is the TypeScript SDK's, run by {@code node test-servers/bench-ts-client.mjs}. */
    static boolean isNode(String name) {
        return name.equals("ts") || name.startsWith("ts-");
    }

    /** The transport group of a client (one of {@link #GROUPS}). */
    static String group(String name) {
        if (name.contains("http")) {
            return name.endsWith("-sse") ? GROUPS.get(2) : GROUPS.get(1);
        }
        return GROUPS.get(0);
    }

    /** Fails with {@link IllegalArgumentException} on an unknown client name. */
    static void validate(String name) {
        if (isNode(name)) {
            if (!List.of("ts", "ts-http", "ts-http-sse").contains(name)) {
                throw new IllegalArgumentException("unknown client " + name + "; the TypeScript ones: ts, ts-http,"
                        + " ts-http-sse");
            }
            return;
        }
        create(name);
    }

    /** A Java client by name (not the TypeScript ones: see {@link TsClient}). */
    static BenchClient create(String name) {
        return switch (name) {
            case "raw" -> new RawClient(false, false);
            case "raw-queued" -> new RawClient(true, false);
            case "raw-vreader" -> new RawClient(false, true);
            case "raw-queued-vreader" -> new RawClient(true, true);
            case "raw-modern" -> new RawClient(false, false, true);
            case "raw-http" -> new RawHttpClient(false, false);
            case "raw-http-modern" -> new RawHttpClient(true, false);
            case "raw-http-sse" -> new RawHttpClient(false, true);
            case "raw-http-modern-sse" -> new RawHttpClient(true, true);
            case "loom" -> new LoomClient();
            case "loom-legacy" -> new LoomClient(name, ProtocolMode.LEGACY, false);
            case "loom-icpt3" -> new LoomClient(name, null, false, 3);
            case "loom-modern" -> new LoomClient(name, ProtocolMode.MODERN, false);
            case "loom-otel" -> LoomClient.withTelemetry(name);
            case "loom-http-legacy" -> new LoomClient(name, ProtocolMode.LEGACY, true);
            case "loom-http-modern" -> new LoomClient(name, ProtocolMode.MODERN, true);
            case "loom-http-legacy-sse" -> new LoomClient(name, ProtocolMode.LEGACY, true);
            case "loom-http-modern-sse" -> new LoomClient(name, ProtocolMode.MODERN, true);
            case "sdk-sync" -> new SdkClients.Sync();
            case "sdk-async" -> new SdkClients.Async();
            case "sdk-http" -> new SdkClients.Http(false);
            case "sdk-http-sse" -> new SdkClients.Http(true);
            default -> throw new IllegalArgumentException("unknown client " + name + "; known: " + MATRIX
                    + ", " + INTERCEPTED + " and the raw-queued, raw-vreader, raw-queued-vreader, raw-http-modern-sse variants");
        };
    }

    /**
     * Why a client is known to fail calls in this benchmark, for clients whose failures are a finding about that
     * client and not a fault of the harness; null for the others. {@code --check} does not fail on these.
     */
    static String knownFailures(String name) {
        return switch (name) {
            case "sdk-sync" -> "the official SDK 2.1.0's StdioClientTransport.sendMessage emits into a unicast"
                    + " Sinks.Many with EmitFailureHandler.busyLooping(100 ms): concurrent senders spin on the CPU"
                    + " and, past 100 ms, fail with 'Failed to enqueue message' (FAIL_NON_SERIALIZED). The sync"
                    + " client sends on the calling thread, so with many virtual threads calling at once some calls"
                    + " fail; --check tolerates them.";
            case "sdk-async" -> "the async client shares that transport: its in-flight phases subscribe from one"
                    + " thread and do not fail, but the scale run, where 10,000 virtual threads each block on their"
                    + " own call, sends concurrently and fails some calls the same way.";
            default -> null;
        };
    }

    /**
     * The client each client is compared with: the legacy raw loop of the same transport ({@code raw-http} for the
     * HTTP clients, {@code raw} for the others).
     */
    static String reference(String name) {
        if (name.contains("http")) {
            return name.endsWith("-sse") ? "raw-http-sse" : "raw-http";
        }
        return "raw";
    }

    /** A label for the table. */
    static String label(String name) {
        return switch (name) {
            case "raw" -> "raw loop (Java + Jackson 3, no SDK)";
            case "raw-queued" -> "raw loop, writes through a queue and a writer virtual thread";
            case "raw-vreader" -> "raw loop, reader on a virtual thread";
            case "raw-queued-vreader" -> "raw loop, writer queue and virtual reader (loom-mcp's thread layout)";
            case "raw-modern" -> "raw loop, modern era (server/discover, _meta on every request)";
            case "raw-http" -> "raw loop over HTTP (java.net.http, one POST per request)";
            case "raw-http-modern" -> "raw loop over HTTP, modern era (_meta and Mcp-* headers)";
            case "raw-http-sse" -> "raw loop over HTTP, SSE answers (one event per POST)";
            case "raw-http-modern-sse" -> "raw loop over HTTP, modern era, SSE answers";
            case "loom" -> "loom-mcp, ProtocolMode.AUTO (default; finds the modern era on the dual server)";
            case "loom-legacy" -> "loom-mcp, ProtocolMode.LEGACY";
            case "loom-modern" -> "loom-mcp, ProtocolMode.MODERN";
            case "loom-icpt3" -> "loom-mcp, ProtocolMode.AUTO, three pass-through interceptors";
            case "loom-otel" -> "loom-mcp, ProtocolMode.AUTO, mcp-opentelemetry on an SDK exporting nowhere";
            case "loom-http-legacy" -> "loom-mcp over HTTP, ProtocolMode.LEGACY";
            case "loom-http-modern" -> "loom-mcp over HTTP, ProtocolMode.MODERN";
            case "loom-http-legacy-sse" -> "loom-mcp over HTTP, ProtocolMode.LEGACY, SSE answers";
            case "loom-http-modern-sse" -> "loom-mcp over HTTP, ProtocolMode.MODERN, SSE answers";
            case "sdk-async" -> "official Java SDK 2.1.0, async client";
            case "sdk-sync" -> "official Java SDK 2.1.0, sync client from virtual threads";
            case "sdk-http" -> "official Java SDK 2.1.0, async client, HttpClientStreamableHttpTransport";
            case "sdk-http-sse" -> "official Java SDK 2.1.0, async client, HttpClientStreamableHttpTransport, SSE"
                    + " answers";
            case "ts" -> "TypeScript SDK 1.32.2 Client, StdioClientTransport (Node)";
            case "ts-http" -> "TypeScript SDK 1.32.2 Client, StreamableHTTPClientTransport (Node)";
            case "ts-http-sse" -> "TypeScript SDK 1.32.2 Client, StreamableHTTPClientTransport, SSE answers (Node)";
            default -> name;
        };
    }
}
