package dev.loommcp.internal.session;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How requests of one era reach the wire: {@link LegacyWire} (session renewal on an expired session) or
 * {@link ModernRequests} (envelope, routing, corrective retry, {@code resultType}, multi round-trip requests). The
 * session picks one at connect ({@link LegacyWire} before), so that no call asks which era it is in. Each opens the
 * request's scope and hands the request to the {@link CallLife}. Thread-safe.
 */
interface WirePath {

    /** The era this path speaks. */
    Era era();

    /**
     * Sends one request and returns its raw result: no caller {@code _meta} added (put it into {@code params}), no
     * check of the result's Java type.
     *
     * @param method  the method
     * @param params  the params (plain JSON), or {@code null}
     * @param options deadline, token, progress listener
     * @param onSent  told each request's JSON-RPC id just before it is handed to the transport (a retry is a new
     *                request with a new id); or {@code null}
     * @return the result
     * @throws InterruptedException if the calling thread is interrupted
     */
    Object call(String method, Map<String, Object> params, RequestOptions options, Consumer<RequestId> onSent)
            throws InterruptedException;

    /**
     * Sends a {@code tools/call} whose params are built: as {@link #call}, with the era's tool routing where it
     * applies ({@link HeaderRoutedCalls}).
     *
     * @param name     the tool's name
     * @param params   the params
     * @param options  the call's options
     * @param deadline the call's deadline, computed once at its start
     * @return the raw result
     * @throws InterruptedException if the calling thread is interrupted
     */
    Object callTool(String name, Map<String, Object> params, RequestOptions options, Deadline deadline)
            throws InterruptedException;

    /**
     * Sends a notification the way the era wants it (the client is connected).
     *
     * @throws InterruptedException if the calling thread is interrupted
     */
    void notify(String method, Map<String, Object> params, RequestOptions options) throws InterruptedException;

    /** Whether tool calls carry {@code Mcp-Param-*} headers from the tools' {@code x-mcp-header} annotations. */
    boolean routesToolHeaders();
}
