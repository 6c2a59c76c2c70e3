/**
 * Tasks: {@link dev.loommcp.tasks.McpTasks} (install it on a client, start tasks, resume them after a restart),
 * {@link dev.loommcp.tasks.McpTask} (one task's handle), {@link dev.loommcp.tasks.TaskSnapshot} and
 * {@link dev.loommcp.tasks.TaskStatus} (what the server said), {@link dev.loommcp.tasks.TaskStore} (where open tasks
 * are remembered: {@link dev.loommcp.tasks.InMemoryTaskStore}, {@link dev.loommcp.tasks.FileTaskStore}).
 */
package dev.loommcp.tasks;
