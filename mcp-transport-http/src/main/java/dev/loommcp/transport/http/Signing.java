package dev.loommcp.transport.http;

import dev.loommcp.McpTransportException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The step of a {@link RequestSigner}: shows it each request as it will go out (method, URI, every header, caller's,
 * credentials and the transport's own, and a copy of the body) and adds the headers it returns, checked with the
 * caller-header rules. The signer is user code that may block: a caller whose deadline passed meanwhile gets its
 * timeout. Only in the chain when a signer is set.
 */
final class Signing implements Step {

    private final RequestSigner signer;
    private final Step next;

    Signing(RequestSigner signer, Step next) {
        this.signer = signer;
        this.next = next;
    }

    @Override
    public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
        TreeMap<String, List<String>> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.addTo(all);
        call.headers.addTo(all);
        Map<String, List<String>> view = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        all.forEach((k, v) -> view.put(k, List.copyOf(v)));
        Map<String, String> added;
        try {
            added = signer.sign(call.method, uri, Collections.unmodifiableMap(view), call.requestBody.clone());
        } catch (RuntimeException e) {
            throw new McpTransportException(call.what + ": the request signer failed (" + Exchange.reason(e) + ")",
                    e);
        }
        if (added == null) {
            throw new McpTransportException(call.what + ": the request signer returned null");
        }
        for (Map.Entry<String, String> h : added.entrySet()) {
            String problem = HeaderRules.problem(h.getKey(), h.getValue());
            if (problem != null) {
                throw new McpTransportException(call.what + ": the request signer returned " + problem);
            }
        }
        Exchange.throwIfPast(call, call.deadline, "waiting for the request signer"); // user code too: as above
        return next.send(call, uri, headers.plusAll(added));
    }
}
