/**
 * Internal concurrency machinery: tracked, named threads ({@code McpThreads}), bounded joins ({@code Joins}), guards
 * for application callbacks ({@code UserCode}), byte-bounded queues ({@code BoundedQueue}) and in-order delivery to
 * application code under no lock ({@code SerialDelivery}). Not API.
 */
package dev.loommcp.internal.concurrent;
