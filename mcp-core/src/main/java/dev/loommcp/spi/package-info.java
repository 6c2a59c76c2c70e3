/**
 * The transport SPI (DESIGN.md section 4): what a transport implements so that {@code McpClient} can talk over it.
 * Users only build a transport and pass it to the client; they never call these methods.
 */
package dev.loommcp.spi;
