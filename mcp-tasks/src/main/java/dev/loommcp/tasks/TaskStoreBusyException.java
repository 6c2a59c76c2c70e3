package dev.loommcp.tasks;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link TaskStore} that stayed busy (its lock held by another thread or process) until the deadline of the
 * operation: the operation was not done and the store is unchanged. Thrown by {@link FileTaskStore}; {@link McpTasks}
 * logs it as a WARNING and the task goes on (a later {@link McpTasks#resumeTasks()} may miss the task or see a stale
 * status). The message names the store's file and what held it up.
 */
public final class TaskStoreBusyException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message names the store and what held it up
     */
    public TaskStoreBusyException(String message) {
        super(message, new IOException(message));
    }
}
