/** Internal concurrency machinery: {@code RequestScope} and friends. Not API. */
package dev.loommcp.internal.concurrent;
