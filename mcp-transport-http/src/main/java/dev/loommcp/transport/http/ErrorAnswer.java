package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSettings.MAX_ERROR_BODY_BYTES;

import dev.loommcp.McpProtocolException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The step after a non-2xx answer: a JSON-RPC error in its body delivered as the request's answer where the dialect
 * allows it, otherwise the failure, with an excerpt of the body ({@link ErrorExcerpt}), the refusal that was not sent
 * again ({@link McpRateLimitedException}), or the authorization challenges and renewals of a final 401/403. Closes
 * the body. Thread-safe.
 */
final class ErrorAnswer {

    private final HttpSettings settings;

    ErrorAnswer(HttpSettings settings) {
        this.settings = settings;
    }

    /**
     * The exception of an HTTP error answer: {@code message} with an excerpt of the body (from {@code read}, the
     * bytes read already, or read here: at most {@link ErrorExcerpt#MAX_BYTES}, waiting at most 1 s and never past
     * the deadline), and, when the answer was a refusal the transport did not send again ({@link Call#rateLimited}),
     * an {@link McpRateLimitedException} that says why and carries the server's {@code Retry-After}. Closes the body.
     *
     * @param read the body's first bytes when the caller read them, else {@code null}
     */
    McpHttpStatusException statusFailure(Call call, HttpResponse<StreamBody> resp, byte[] read, String message)
            throws InterruptedException {
        return statusFailure(call, resp, read, Exchange.mediaType(resp), message);
    }

    /**
     * {@link #statusFailure(Call, HttpResponse, byte[], String)} with the media type {@code read} is in (the
     * text of a JSON-RPC error's message is shown as text, not as the JSON around it). A 401 or 403 answer shows no
     * excerpt: an authorization failure's body may echo what the request carried, and its challenges say what is
     * needed.
     */
    private McpHttpStatusException statusFailure(Call call, HttpResponse<StreamBody> resp, byte[] read,
                                                 String readType, String message) throws InterruptedException {
        int status = resp.statusCode();
        byte[] bytes = read;
        if (status == 401 || status == 403) {
            bytes = null;
        } else if (bytes == null) {
            long wait = Math.min(ERROR_EXCERPT_WAIT_NANOS, settings.waitNanos(call, call.deadline));
            bytes = resp.body().readPrefix(ErrorExcerpt.MAX_BYTES, wait);
        }
        resp.body().close();
        String excerpt = ErrorExcerpt.of(bytes, readType);
        String said = excerpt == null ? "" : "; the server said: " + excerpt;
        Call.RateLimit r = call.rateLimited;
        if (r != null && (status == 429 || status == 503)) {
            return new McpRateLimitedException(status, message + (r.retryAfter() == null ? ""
                    : " (Retry-After " + RetryPolicy.describe(r.retryAfter()) + ")") + "; not sent again: "
                    + r.why() + said, r.retryAfter(), r.sent());
        }
        List<AuthChallenge> challenges = challenges(resp);
        return new McpHttpStatusException(status, message + refusedAfterRenewal(call, status, challenges) + said,
                challenges);
    }

    /** How long {@link #statusFailure} waits for an error body's first bytes. */
    private static final long ERROR_EXCERPT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * What a final 401/403 adds to its error message when the authorization provider had the request sent again
     * with renewed credentials before: that the server refused those too, and the {@code error} of its
     * {@code WWW-Authenticate} challenge (RFC 6750 section 3.1) when it is a plain token.
     *
     * @param call       the exchange
     * @param status     the final status
     * @param challenges the final response's challenges
     * @return for example {@code ": the server refused the credentials the authorization provider renewed (3 times;
     *         WWW-Authenticate error invalid_token)"}, or {@code ""}
     */
    static String refusedAfterRenewal(Call call, int status, List<AuthChallenge> challenges) {
        int n = call.authRetries;
        if ((status != 401 && status != 403) || n == 0) {
            return "";
        }
        String error = null;
        for (AuthChallenge c : challenges) {
            String e = c.parameter("error").orElse(null);
            if (e != null) {
                error = e.matches("[A-Za-z0-9_.-]{1,64}") ? e : "(not a plain token)";
                break;
            }
        }
        return ": the server refused the credentials the authorization provider renewed (" + n
                + (n == 1 ? " time" : " times") + (error == null ? "" : "; WWW-Authenticate error " + error) + ")";
    }

    /**
     * A non-2xx answer: deliver a JSON-RPC error body as the answer of {@code answerTo} (the request this very POST
     * carried), or throw the status.
     *
     * @param answerTo the id of the request the POST carried, or {@code null} when it carried none (a notification
     *                 or a response, also one replayed for another request's session restart): then an error body
     *                 is never anybody's answer
     * @param deliver  takes the answer; {@code null} when {@code answerTo} is
     * @param expired  for a POST that carried a session id: what to throw when a 400 says the session is unknown
     *                 (servers built on the TypeScript SDK, the reference server among them, answer an unknown
     *                 session with 400 "Bad Request: No valid session ID provided" where the spec says 404);
     *                 {@code null} otherwise
     * @param serverErrorsAnswer whether a 5xx with a JSON-RPC error body is the request's answer: in the legacy
     *                 dialect; not in the modern one (MCP 2026-07-28: a server failure is no answer from the protocol,
     *                 nor evidence of its era); 401 and 403 never are, in either
     */
    void failOrDeliver(Call call, HttpResponse<StreamBody> resp, RequestId answerTo,
                       Consumer<JsonRpcMessage> deliver, Supplier<RuntimeException> expired,
                       boolean serverErrorsAnswer) throws InterruptedException {
        Deadline deadline = call.deadline;
        int status = resp.statusCode();
        String rpcNote = "";
        byte[] read = null;
        String readType = Exchange.mediaType(resp);
        // a refusal that was not sent again is never an answer: its error body says "later", not the outcome
        if (Exchange.isJson(Exchange.mediaType(resp)) && call.rateLimited == null) {
            try {
                byte[] bytes = resp.body().readAll(MAX_ERROR_BODY_BYTES, () -> settings.waitNanos(deadline));
                read = bytes;
                Exchange.traceBody("received error", call.what, bytes);
                List<JsonRpcMessage> ms = settings.framing.decode(bytes, 0, bytes.length);
                if (ms.size() == 1 && ms.get(0) instanceof JsonRpcMessage.ErrorResponse e) {
                    rpcNote = " (JSON-RPC error " + e.error().code() + ")";
                    String said = e.error().message();
                    read = said == null ? Exchange.EMPTY : said.getBytes(StandardCharsets.UTF_8);
                    readType = "text/plain";
                    if (status == 400 && expired != null && e.error().message() != null
                            && e.error().message().toLowerCase(java.util.Locale.ROOT).contains("session")) {
                        resp.body().close();
                        throw expired.get();
                    }
                    if (answerTo != null && status != 401 && status != 403 && (serverErrorsAnswer || status < 500)
                            && (e.id() == null || e.id().equals(answerTo) || sameLooseId(e.id(), answerTo))) {
                        deliver.accept(new JsonRpcMessage.ErrorResponse(answerTo, e.error()));
                        return;
                    }
                }
            } catch (IOException | McpProtocolException e) {
                // not a JSON-RPC error body: the status is all we report (unless the deadline passed meanwhile)
                Exchange.throwIfPast(call, deadline, "reading an HTTP " + status + " error body");
            }
        }
        throw statusFailure(call, resp, read, readType, call.what + " failed with HTTP " + status + rpcNote);
    }

    /**
     * Whether an error body's id such as {@code "7"} or {@code 7.0} stands for the integer id the POST carried (issue
     * 8 item 10: real servers answer so); the core matches such ids the same way.
     */
    private static boolean sameLooseId(RequestId got, RequestId sent) {
        return got.looselyMatches(sent);
    }

    static List<AuthChallenge> challenges(HttpResponse<?> resp) {
        int s = resp.statusCode();
        if (s != 401 && s != 403) {
            return List.of();
        }
        return AuthChallenge.parse(resp.headers().allValues("WWW-Authenticate"));
    }
}
