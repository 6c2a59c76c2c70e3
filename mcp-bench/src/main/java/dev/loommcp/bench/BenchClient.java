package dev.loommcp.bench;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One MCP client under test, as the harness drives it: start a server process and finish the handshake, then call
 * {@code echo} and {@code sleep} from any number of threads at once.
 *
 * <p>Implementations are thread-safe after {@link #start}. Every call is blocking and meant to be made from a virtual
 * thread; a client whose natural API is asynchronous may also offer {@link #echoAsync}/{@link #sleepAsync}, which the
 * harness then uses for the in-flight phases instead of one virtual thread per call.
 */
interface BenchClient extends AutoCloseable {

    /** The client's short name on the command line and in the table ({@code raw}, {@code loom}, ...). */
    String name();

    /**
     * Starts the server process given by {@code serverArgv} and completes the MCP handshake; returns when the client
     * is ready for calls (after {@code notifications/initialized} was sent).
     */
    void start(List<String> serverArgv) throws Exception;

    /** Calls tool {@code echo} with {@code text} and returns the text of the answer's first content block. */
    String echo(String text) throws Exception;

    /** Calls tool {@code sleep} with {@code ms} and returns the text of the answer's first content block. */
    String sleep(int ms) throws Exception;

    /**
     * Calls any tool with the given arguments and returns the text of the answer's first content block (used for the
     * server's unlisted {@code stats} tool).
     */
    String callTool(String tool, java.util.Map<String, Object> arguments) throws Exception;

    /** Whether {@link #echoAsync}/{@link #sleepAsync} are the client's own non-blocking API. */
    default boolean asyncNative() {
        return false;
    }

    /** Non-blocking {@code echo}; only where {@link #asyncNative()} is true. */
    default CompletableFuture<String> echoAsync(String text) {
        throw new UnsupportedOperationException();
    }

    /** Non-blocking {@code sleep}; only where {@link #asyncNative()} is true. */
    default CompletableFuture<String> sleepAsync(int ms) {
        throw new UnsupportedOperationException();
    }

    /** Ends the session and the server process. */
    @Override
    void close() throws Exception;
}
