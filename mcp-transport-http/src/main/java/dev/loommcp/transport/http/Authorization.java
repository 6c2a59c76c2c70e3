package dev.loommcp.transport.http;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * The step of an {@link AuthorizationProvider}'s 401/403 retry (MCP "Authorization"): hands a final 401 or 403 (after
 * redirects and refusals) to the provider and, when it says so, sends the request again from the endpoint itself
 * with its renewed credentials, at most {@link AuthorizationProvider#MAX_RETRIES} times; then records how often on
 * the call ({@link Call#authRetries}, for the error message). Only in the chain when a provider is set; its
 * per-request part is {@link Credentials}.
 */
final class Authorization implements Step {

    private final Exchange exchange;
    private final AuthorizationProvider provider;
    private final Step next;

    Authorization(Exchange exchange, AuthorizationProvider provider, Step next) {
        this.exchange = exchange;
        this.provider = provider;
        this.next = next;
    }

    @Override
    public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            call.authAttempt = attempt;
            HttpResponse<StreamBody> resp = next.send(call, uri, headers);
            int status = resp.statusCode();
            if ((status != 401 && status != 403) || attempt >= AuthorizationProvider.MAX_RETRIES
                    || !retry(call, resp)) {
                call.authRetries = attempt;
                return resp;
            }
        }
    }

    /**
     * Hands a 401/403 to the provider; whether to send the request again. The refused response's body is closed when
     * it is sent again, else left for the caller's error handling.
     */
    private boolean retry(Call call, HttpResponse<StreamBody> resp) throws InterruptedException {
        AuthorizationFailure failure = new AuthorizationFailure(resp.statusCode(), ErrorAnswer.challenges(resp),
                resp.headers());
        boolean retry;
        try {
            retry = provider.onChallenge(call.authRequest, failure);
        } catch (RuntimeException e) {
            resp.body().close();
            throw providerFailed(call, e);
        } catch (InterruptedException e) {
            resp.body().close();
            throw e;
        }
        if (retry) {
            resp.body().close();
            if (call.aborted()) {
                throw exchange.aborted(call);
            }
        }
        return retry;
    }

    /**
     * An authorization provider's exception: an McpException as it is, anything else wrapped with its class and
     * message ({@link Exchange#reason}: a message quoting anything, or with control characters, is left out).
     */
    static McpException providerFailed(Call call, RuntimeException e) {
        if (e instanceof McpException m) {
            return m;
        }
        return new McpTransportException(call.what + ": the authorization provider failed ("
                + Exchange.reason(e) + ")", e);
    }

    /**
     * The per-request step of authorization: asks the provider for each request's credentials (they replace a
     * caller header of the same name, such as a static {@code Authorization}: one set of credentials), checks them
     * with the caller-header rules, and shows the provider every response ({@link AuthorizationProvider#onResponse}).
     * The provider may block (a refresh): a caller whose deadline passed meanwhile gets its timeout, and the server
     * never sees a request nobody waits for.
     */
    static final class Credentials implements Step {

        private final HttpSettings settings;
        private final AuthorizationProvider provider;
        private final Step next;

        Credentials(HttpSettings settings, AuthorizationProvider provider, Step next) {
            this.settings = settings;
            this.provider = provider;
            this.next = next;
        }

        @Override
        public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
            AuthorizationRequest request = new AuthorizationRequest(settings.target, call.method, uri,
                    call.authAttempt, call.bound());
            call.authRequest = request;
            Map<String, String> credentials;
            try {
                credentials = provider.credentials(request);
            } catch (RuntimeException e) {
                throw providerFailed(call, e);
            }
            if (credentials == null) {
                throw new McpTransportException(call.what + ": the authorization provider returned null");
            }
            for (Map.Entry<String, String> h : credentials.entrySet()) {
                String problem = HeaderRules.problem(h.getKey(), h.getValue());
                if (problem != null) {
                    throw new McpTransportException(call.what + ": the authorization provider returned " + problem);
                }
            }
            Exchange.throwIfPast(call, call.deadline, "waiting for the authorization provider");
            HttpResponse<StreamBody> resp = next.send(call, uri, headers.replacing(credentials));
            try {
                provider.onResponse(request, resp.statusCode(), resp.headers());
            } catch (RuntimeException e) {
                resp.body().close();
                throw providerFailed(call, e);
            }
            return resp;
        }
    }
}
