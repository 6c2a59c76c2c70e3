package dev.loommcp.transport.http;

import java.net.URI;
import java.net.http.HttpResponse;

/**
 * One step of an HTTP exchange on its way to the wire (the transport's own interceptor chain, built once per
 * {@link Exchange}): {@link Authorization} (the 401/403 retry), {@link Redirects}, {@link RefusalRetry} (429/503),
 * {@link Authorization.Credentials}, {@link Signing}, and last {@link Transmit}, which hands the request to the HTTP
 * client. Each step does its one thing and calls the next; none calls back into an earlier one. A step that does not
 * apply (no authorization provider, no signer) is not in the chain.
 *
 * <p>The request being sent (method, body, the transport's headers, the deadline) is the {@link Call}'s
 * ({@link Call#sending}); a step gets the URI it goes to and the caller's headers (with credentials and signature as
 * the steps add them). Implementations are stateless and thread-safe; a call is sent by one thread at a time.
 */
interface Step {

    /**
     * Sends the call's request to {@code uri} and returns the response (its body not read).
     *
     * @param call    the exchange
     * @param uri     where the request goes
     * @param headers the caller's headers, plus what earlier steps added
     * @return the response
     * @throws InterruptedException if the sending thread is interrupted
     * @throws dev.loommcp.McpException what went wrong, mapped to the client's exceptions
     */
    HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException;
}
