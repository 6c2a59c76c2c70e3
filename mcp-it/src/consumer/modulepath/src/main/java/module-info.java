/** A user's module: what the README says to require. */
module dev.example.consumer {
    requires dev.loommcp.core;
    requires dev.loommcp.transport.stdio;
    requires dev.loommcp.transport.http;
    requires dev.loommcp.tasks;
    requires dev.loommcp.auth;
    requires dev.loommcp.testing;

    // structuredContentAs(Weather.class) reads the record through Jackson databind
    opens dev.example.consumer to tools.jackson.databind;
}
