package dev.loommcp;

import dev.loommcp.schema.ListResourceTemplatesResult;
import dev.loommcp.schema.ListResourcesResult;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The resources of an MCP server (MCP 2025-11-25 "Server features: Resources"): listing resources and resource
 * templates, reading a resource, and subscribing to its updates. {@link McpClient} implements it; code that only
 * reads resources can depend on this interface.
 *
 * <p>Implementations are thread-safe. Each blocking method comes in two forms, the shorter one using
 * {@link RequestOptions#DEFAULT}; each honours its deadline, token and the thread's interrupt and throws the
 * {@link McpException} family as {@link McpTools} describes ({@link McpRpcException} for a JSON-RPC error such as an
 * unknown resource). Null arguments follow the package's null policy ({@code dev.loommcp}).
 *
 * <p>Listings keep what they can use: a malformed entry of a list result (a resource or template whose fields do not have the MCP
 * schema's types, one without a uri or name, a value that is not an object) is left out with one {@code WARNING} on the
 * {@code dev.loommcp.client} logger naming the method, the entry's index and what was wrong (never its content),
 * and the other entries are returned. A result whose envelope is malformed (the array missing or not an array, a
 * {@code nextCursor} that is not a string in a complete listing) fails with {@link McpProtocolException}.
 */
public interface McpResources {

    /**
     * Reads one page of {@code resources/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ListResourcesResult listResources(@Nullable String cursor) throws InterruptedException {
        return listResources(cursor, RequestOptions.DEFAULT);
    }

    /**
     * Reads one page of {@code resources/list} with per-call options.
     *
     * @param cursor  the cursor, or {@code null}
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the page
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    ListResourcesResult listResources(@Nullable String cursor, RequestOptions options) throws InterruptedException;

    /**
     * Reads every page of {@code resources/list} (loop-guarded like {@link McpTools#listAllTools()}).
     *
     * @return the resources
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<Resource> listAllResources() throws InterruptedException {
        return listAllResources(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code resources/list} with per-page options.
     *
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the resources
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<Resource> listAllResources(RequestOptions options) throws InterruptedException;

    /**
     * Reads one page of {@code resources/templates/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ListResourceTemplatesResult listResourceTemplates(@Nullable String cursor) throws InterruptedException {
        return listResourceTemplates(cursor, RequestOptions.DEFAULT);
    }

    /**
     * Reads one page of {@code resources/templates/list} with per-call options.
     *
     * @param cursor  the cursor, or {@code null}
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the page
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    ListResourceTemplatesResult listResourceTemplates(@Nullable String cursor, RequestOptions options)
            throws InterruptedException;

    /**
     * Reads every page of {@code resources/templates/list}.
     *
     * @return the templates
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<ResourceTemplate> listAllResourceTemplates() throws InterruptedException {
        return listAllResourceTemplates(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code resources/templates/list} with per-page options.
     *
     * @param options timeout, deadline, token, extra {@code _meta}
     * @return the templates
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<ResourceTemplate> listAllResourceTemplates(RequestOptions options) throws InterruptedException;

    /**
     * Reads a resource ({@code resources/read}).
     *
     * @param uri the resource URI
     * @return the contents
     * @throws McpException         when the call fails (a missing resource is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ReadResourceResult readResource(String uri) throws InterruptedException {
        return readResource(uri, RequestOptions.DEFAULT);
    }

    /**
     * Reads a resource with per-call options.
     *
     * @param uri     the resource URI
     * @param options timeout, token
     * @return the contents
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    ReadResourceResult readResource(String uri, RequestOptions options) throws InterruptedException;

    /**
     * Subscribes to updates of a resource ({@code resources/subscribe}); updates arrive as
     * {@code notifications/resources/updated} to the notification listener and the drain queue.
     *
     * @param uri the resource URI
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default void subscribe(String uri) throws InterruptedException {
        subscribe(uri, RequestOptions.DEFAULT);
    }

    /**
     * Subscribes to updates of a resource with per-call options. Legacy era only; {@code McpClient.listen} serves
     * both eras.
     *
     * @param uri     the resource URI
     * @param options timeout, deadline, token, extra {@code _meta}
     * @throws McpUnsupportedInEraException in the modern era, which removed {@code resources/subscribe} (nothing is sent)
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    void subscribe(String uri, RequestOptions options) throws InterruptedException;

    /**
     * Ends a subscription ({@code resources/unsubscribe}).
     *
     * @param uri the resource URI
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default void unsubscribe(String uri) throws InterruptedException {
        unsubscribe(uri, RequestOptions.DEFAULT);
    }

    /**
     * Ends a subscription with per-call options. Legacy era only.
     *
     * @param uri     the resource URI
     * @param options timeout, deadline, token, extra {@code _meta}
     * @throws McpUnsupportedInEraException in the modern era, which removed {@code resources/unsubscribe} (nothing is sent)
     * @throws McpException         when the call fails (the interface documentation lists which)
     * @throws InterruptedException if the calling thread is interrupted
     */
    void unsubscribe(String uri, RequestOptions options) throws InterruptedException;
}
