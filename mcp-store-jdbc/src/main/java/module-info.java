/**
 * loom-mcp on JDBC: {@link dev.loommcp.store.jdbc.JdbcTokenStore} (mcp-auth's {@code TokenStore}) and
 * {@link dev.loommcp.store.jdbc.JdbcTaskStore} (mcp-tasks' {@code TaskStore}) on the application's
 * {@link javax.sql.DataSource}, so that the replicas of a backend share OAuth tokens, client registrations, refresh
 * leases and tasks; the schema and its migration in {@link dev.loommcp.store.jdbc.JdbcSchema}. Tested on PostgreSQL.
 */
module dev.loommcp.store.jdbc {
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.auth;
    requires transitive dev.loommcp.tasks;
    requires transitive java.sql;
    requires tools.jackson.databind;

    exports dev.loommcp.store.jdbc;
}
