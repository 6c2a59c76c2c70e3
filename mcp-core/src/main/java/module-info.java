/**
 * loom-mcp core: the client API ({@code dev.loommcp}), the protocol records ({@code dev.loommcp.schema}), JSON-RPC
 * envelopes ({@code dev.loommcp.jsonrpc}) and the transport SPI ({@code dev.loommcp.spi}).
 */
module dev.loommcp.core {
    requires tools.jackson.databind;
    requires transitive com.fasterxml.jackson.annotation;
    requires com.networknt.schema;

    exports dev.loommcp;
    exports dev.loommcp.schema;
    exports dev.loommcp.jsonrpc;
    exports dev.loommcp.spi;

    exports dev.loommcp.internal.json to
            dev.loommcp.transport.stdio, dev.loommcp.transport.http, dev.loommcp.tasks, dev.loommcp.cli,
            dev.loommcp.bench;
    // dev.loommcp.testing (the published test fixtures) reads McpThreads.live() for its leak check only
    exports dev.loommcp.internal.concurrent to
            dev.loommcp.transport.stdio, dev.loommcp.transport.http, dev.loommcp.tasks, dev.loommcp.cli,
            dev.loommcp.testing, dev.loommcp.bench;

    opens dev.loommcp.schema to tools.jackson.databind;
}
