package dev.loommcp.transport.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A connector of a test scheme whose requests go to the test server, on the JDK's client; a test overrides
 * {@link #newClient} to wrap the client ({@link DelegatingClient}).
 */
class LoopbackConnector implements HttpConnector {
    final List<HttpClient> clients = new CopyOnWriteArrayList<>();
    volatile HttpClient.Redirect redirect = HttpClient.Redirect.NEVER;
    private final TestServer server;
    private final String scheme;

    LoopbackConnector(TestServer server, String scheme) {
        this.server = server;
        this.scheme = scheme;
    }

    @Override
    public String scheme() {
        return scheme;
    }

    @Override
    public Route route(URI endpoint) {
        return new Route(server.uri(endpoint.getRawSchemeSpecificPart()), scheme + ":server");
    }

    @Override
    public HttpClient newClient(URI endpoint, Options options) {
        HttpClient c = HttpClient.newBuilder().executor(options.executor())
                .version(HttpClient.Version.HTTP_1_1).followRedirects(redirect).build();
        clients.add(c);
        return c;
    }
}
