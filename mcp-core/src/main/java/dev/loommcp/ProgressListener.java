package dev.loommcp;

import dev.loommcp.schema.ProgressNotification;

/**
 * Receives {@code notifications/progress} for one call (MCP "Progress"). Set through
 * {@link RequestOptions.Builder#progressListener}. Called on the client's event thread, in the order the
 * notifications arrived; it should return promptly. Whatever it throws, {@link Error}s included, is logged at
 * {@code WARNING} (without its message) and ignored.
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
