/** A user's module: what the README says to require. */
module dev.example.consumer {
    requires dev.loommcp.core;
    requires dev.loommcp.transport.stdio;
    requires dev.loommcp.transport.http;
    requires dev.loommcp.tasks;
    requires dev.loommcp.auth;
    requires dev.loommcp.testing;
    requires dev.loommcp.hosts;
    // the skills extension (its HostSkills needs mcp-hosts, an optional dependency of mcp-skills)
    requires dev.loommcp.skills;
    requires dev.loommcp.opentelemetry;
    // unix: endpoints; on the module path the connector module must be in the graph for the HTTP transport's
    // ServiceLoader to find it
    requires dev.loommcp.transport.unix;
    // the LangChain4j adapter (LangChain4j's jars are automatic modules)
    requires dev.loommcp.langchain4j;
    // the token and task stores on the application's DataSource (a fleet of replicas)
    requires dev.loommcp.store.jdbc;

    // structuredContentAs(Weather.class) reads the record through Jackson databind
    opens dev.example.consumer to tools.jackson.databind;
}
