package dev.loommcp.event;

import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.RequestOptions;

/**
 * Receives {@code notifications/progress} for one call (MCP "Progress"). Set through
 * {@link RequestOptions.Builder#progressListener}. Called on the thread that made the call, while it waits for the
 * answer, in the order the notifications arrived: every notification the server sent before its response is
 * delivered before the call returns, none after it. It should return promptly (the call returns only after it).
 * Anything it throws, {@link Error}s included, is logged at {@code WARNING} (without its message) and ignored.
 */
@FunctionalInterface
public interface ProgressListener {
    /**
     * Called for each progress notification of the call.
     *
     * @param progress the notification
     */
    void onProgress(ProgressNotification progress);
}
