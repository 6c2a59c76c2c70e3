/**
 * Internal concurrency machinery: tracked, named threads ({@code McpThreads}), bounded joins ({@code Joins}), guards
 * for application callbacks ({@code UserCode}) and byte-bounded queues ({@code BoundedQueue}). Not API.
 */
package dev.loommcp.internal.concurrent;
