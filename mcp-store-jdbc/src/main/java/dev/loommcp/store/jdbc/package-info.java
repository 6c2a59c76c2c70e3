/**
 * Token and task stores on JDBC, for a fleet of replicas sharing one database: {@link JdbcTokenStore},
 * {@link JdbcTaskStore}, {@link JdbcSchema}. See docs/fleet.md.
 *
 * <p>Nullness: this package is {@link org.jspecify.annotations.NullMarked @NullMarked}, as every package of loom-mcp
 * (see {@code dev.loommcp}).
 */
@NullMarked
package dev.loommcp.store.jdbc;

import org.jspecify.annotations.NullMarked;
