/**
 * loom-mcp core: the client API ({@code dev.loommcp}), its protocol choices ({@code dev.loommcp.config}), listeners and
 * subscriptions ({@code dev.loommcp.event}), the handlers of server requests ({@code dev.loommcp.handler}), the
 * interceptors of requests ({@code dev.loommcp.intercept}), the protocol records ({@code dev.loommcp.schema}), the
 * resilience policies ({@code dev.loommcp.policy}), JSON-RPC envelopes ({@code dev.loommcp.jsonrpc}) and the transport
 * SPI ({@code dev.loommcp.spi}).
 */
module dev.loommcp.core {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires com.networknt.schema;

    exports dev.loommcp;
    exports dev.loommcp.config;
    exports dev.loommcp.event;
    exports dev.loommcp.handler;
    exports dev.loommcp.intercept;
    exports dev.loommcp.schema;
    exports dev.loommcp.jsonrpc;
    exports dev.loommcp.spi;
    exports dev.loommcp.policy;

    // internal packages: only to the project's own modules that need them (the transports use the SPI alone)
    exports dev.loommcp.internal.json to dev.loommcp.cli, dev.loommcp.hosts, dev.loommcp.tasks, dev.loommcp.auth;
    // the https-or-loopback rule of URLs that carry secrets or reach a user, shared with the OAuth client; the
    // content codings (gzip, deflate) of HTTP answers, shared by the HTTP transports and the OAuth client
    exports dev.loommcp.internal.net to dev.loommcp.auth, dev.loommcp.transport.http;
    // dev.loommcp.testing (the published test fixtures) reads McpThreads.live() for its leak check only; tasks and
    // hosts tell their listeners and stores through SerialDelivery (in order, under no lock)
    exports dev.loommcp.internal.concurrent to dev.loommcp.testing, dev.loommcp.tasks, dev.loommcp.hosts;

    opens dev.loommcp.schema to tools.jackson.databind;
}
