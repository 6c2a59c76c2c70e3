package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HeaderRules.ACCEPT_POST;
import static dev.loommcp.transport.http.HeaderRules.ACCEPT_SSE;
import static dev.loommcp.transport.http.HeaderRules.LAST_EVENT_ID_HEADER;
import static dev.loommcp.transport.http.HeaderRules.SESSION_HEADER;
import static dev.loommcp.transport.http.HeaderRules.VERSION_HEADER;

/**
 * The HTTP session as one immutable value: the {@code Mcp-Session-Id} the server assigned and the negotiated
 * protocol version sent as {@code MCP-Protocol-Version}, either {@code null} while unknown. The transport holds it in
 * one {@link java.util.concurrent.atomic.AtomicReference} and every exchange reads it once, so a request never pairs
 * one session's id with another moment's version; changes go through {@code updateAndGet} with {@link #withId} or
 * {@link #withProtocolVersion}, so that one never loses the other.
 *
 * @param id              the session id, or {@code null} when the server assigned none (yet)
 * @param protocolVersion the negotiated version (validated as sendable), or {@code null} while not known
 * @param expired         the server said it no longer knows the session (HTTP 404, or a 400 saying so, to a request
 *                        that carried it) and no new session started yet: only {@code initialize} may go out; any
 *                        other request is refused unsent ({@link dev.loommcp.McpSessionExpiredException} with
 *                        {@code wasSent() == false}), never sent without a session
 */
record HttpSession(String id, String protocolVersion, boolean expired) {

    /** No session id and no version: before {@code initialize}, and what {@code initialize} itself is sent with. */
    static final HttpSession NONE = new HttpSession(null, null, false);
    /** The session expired and no new one started yet. */
    static final HttpSession EXPIRED = new HttpSession(null, null, true);

    /** A session that has not expired. */
    HttpSession(String id, String protocolVersion) {
        this(id, protocolVersion, false);
    }

    /** The session the answer to {@code initialize} started: its id (or none), no longer expired. */
    HttpSession withId(String newId) {
        return new HttpSession(newId, protocolVersion, false);
    }

    HttpSession withProtocolVersion(String version) {
        return new HttpSession(id, version, expired);
    }

    /** The transport's headers of a POST in this session. */
    Headers postHeaders() {
        if (id == null && protocolVersion == null) {
            return Headers.of("Accept", ACCEPT_POST, "Content-Type", "application/json");
        }
        if (protocolVersion == null) {
            return Headers.of("Accept", ACCEPT_POST, "Content-Type", "application/json", SESSION_HEADER, id);
        }
        if (id == null) {
            return Headers.of("Accept", ACCEPT_POST, "Content-Type", "application/json",
                    VERSION_HEADER, protocolVersion);
        }
        return Headers.of("Accept", ACCEPT_POST, "Content-Type", "application/json", SESSION_HEADER, id,
                VERSION_HEADER, protocolVersion);
    }

    /** The transport's headers of the DELETE that ends this session (which has an id). */
    Headers deleteHeaders() {
        return sessionHeaders(Headers.NONE);
    }

    /** The transport's headers of a GET stream in this session, resumed after {@code lastEventId} when not null. */
    Headers streamHeaders(String lastEventId) {
        Headers h = sessionHeaders(Headers.of("Accept", ACCEPT_SSE));
        return lastEventId == null ? h : h.plus(LAST_EVENT_ID_HEADER, lastEventId);
    }

    private Headers sessionHeaders(Headers h) {
        Headers s = id == null ? h : h.plus(SESSION_HEADER, id);
        return protocolVersion == null ? s : s.plus(VERSION_HEADER, protocolVersion);
    }

    /** Names what is set, never the values (the session id is a credential of sorts). */
    @Override
    public String toString() {
        return "HttpSession[id=" + (id == null ? "none" : "<set>") + ", protocolVersion=" + protocolVersion
                + (expired ? ", expired" : "") + "]";
    }
}
