package dev.loommcp.internal.session;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.intercept.McpResponse;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ReadResourceResult;

import java.util.List;
import java.util.Map;

/**
 * Checks an answer an interceptor made instead of the server ({@link McpResponse#of}) where the chain receives it,
 * so that a malformed one fails naming that interceptor ({@link dev.loommcp.McpInterceptorException}) rather than
 * later as if the server had sent it. The check is the caller's decoding of the method's result, and stricter where
 * the spec requires a member a lenient reading of a server's answer lets pass: an interceptor is the application's
 * own code. A task's answer to {@code tools/call} ({@code task}) is left to the task support, and a listing's entries
 * to the listing's own reading (only its array is checked here); other methods take any JSON object. Stateless.
 */
final class LocalAnswers {

    private LocalAnswers() {
    }

    /**
     * Checks an interceptor's answer to {@code method}.
     *
     * @throws McpProtocolException saying what is wrong with it (never its content)
     */
    static void check(String method, McpResponse response) {
        Object result = response.result();
        if (!(result instanceof Map<?, ?> map)) {
            throw new McpProtocolException(method + " result: " + JsonRpcCodec.kind(result)
                    + ", not a JSON object");
        }
        String what = method + " result";
        switch (method) {
            case "tools/call" -> {
                if (map.get("task") instanceof Map) {
                    return; // a task was created: the task support reads it
                }
                require(map, "content", method);
                FastResults.callToolResult(map, what);
            }
            case "prompts/get" -> {
                require(map, "messages", method);
                Json.convert(map, GetPromptResult.class, what);
            }
            case "resources/read" -> {
                require(map, "contents", method);
                Json.convert(map, ReadResourceResult.class, what);
            }
            case "completion/complete" -> {
                if (!(map.get("completion") instanceof Map)) {
                    throw new McpProtocolException(what + ": no \"completion\" object (the spec requires one)");
                }
                Json.convert(map, CompleteResult.class, what);
            }
            case "tools/list" -> require(map, "tools", method);
            case "prompts/list" -> require(map, "prompts", method);
            case "resources/list" -> require(map, "resources", method);
            case "resources/templates/list" -> require(map, "resourceTemplates", method);
            default -> {
                // any JSON object: ping, logging/setLevel, subscriptions, a custom request
            }
        }
    }

    private static void require(Map<?, ?> result, String key, String method) {
        if (!(result.get(key) instanceof List)) {
            throw new McpProtocolException(method + " result: " + (result.containsKey(key)
                    ? "\"" + key + "\" is " + JsonRpcCodec.kind(result.get(key)) + ", not an array"
                    : "no \"" + key + "\" array (the spec requires one)"));
        }
    }
}
