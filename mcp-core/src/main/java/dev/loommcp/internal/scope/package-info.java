/**
 * The scope tree: {@code Scope}, structured concurrency with {@code StructuredTaskScope}'s contract on stable Java 21
 * APIs, and {@code RequestScope}, the context of one request that code running inside it (a handler, a listener, a
 * nested call on any client) inherits. Depends on {@code spi} (the {@code Deadline} type) and
 * {@code internal.concurrent} (named, tracked threads), never the other way. Not API.
 */
package dev.loommcp.internal.scope;
