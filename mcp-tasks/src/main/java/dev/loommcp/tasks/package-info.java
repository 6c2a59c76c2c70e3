/**
 * Tasks: {@link dev.loommcp.tasks.McpTasks} (install it on a client, start tasks, resume them after a restart),
 * {@link dev.loommcp.tasks.McpTask} (one task's handle), {@link dev.loommcp.tasks.TaskSnapshot} and
 * {@link dev.loommcp.tasks.TaskStatus} (what the server said), {@link dev.loommcp.tasks.TaskStore} (where open tasks
 * are remembered: {@link dev.loommcp.tasks.InMemoryTaskStore}, {@link dev.loommcp.tasks.FileTaskStore}).
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.tasks;

import org.jspecify.annotations.NullMarked;
