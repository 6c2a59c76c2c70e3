/**
 * Plain JSON values and data binding, below both the protocol records ({@code dev.loommcp.schema}) and the codec
 * ({@code dev.loommcp.internal.json}), which both use it; it uses neither. The one Jackson mapper
 * ({@link dev.loommcp.internal.json.plain.Binding}), the rule of what may be sent as JSON
 * ({@link dev.loommcp.internal.json.plain.PlainJson}) and the codec's frozen objects that records share. Not API.
 */
package dev.loommcp.internal.json.plain;
