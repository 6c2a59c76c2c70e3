/** Internal JSON machinery: the Jackson mapper and the JSON-RPC codec. Not API. */
package dev.loommcp.internal.json;
