package dev.loommcp.internal.session.era;

import dev.loommcp.config.Era;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import java.time.Duration;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a connect picks the protocol era (MODERN-ERA.md C.2; MCP 2026-07-28 "Versioning: backward compatibility"):
 * the legacy handshake, the modern {@code server/discover}, or the {@code ProtocolMode.AUTO} probe (on a throw-away
 * transport where the transport offers one) and its fallbacks, with the per-server verdicts of {@link EraVerdicts}.
 * It holds no session state: what it learns goes to the session through {@link Host}. Used once per connect, on the
 * connecting thread.
 */
public final class EraSetup {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** What the era setup needs of the session. */
    public interface Host {
        /** Opens the session's transport, bounded by {@code deadline}. */
        void open(Deadline deadline) throws InterruptedException;

        /** One request of the legacy handshake, without routing or envelope. */
        Object handshakeCall(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException;

        /** {@code server/discover} on the session's transport, with the envelope and the {@code -32022} retry. */
        Map<String, Object> discover(RequestOptions options, Deadline deadline) throws InterruptedException;

        /** The modern version the requests carry now. */
        String modernVersion();

        /** Takes a discover result and the version to speak. */
        void adopt(DiscoverResult result, String version);

        /** Takes the checked {@code initialize} result. */
        void initialized(InitializeResult result);

        /** A cached verdict was adopted without asking the server: the first answer checks it. */
        void unverified(String key, EraVerdicts.Verdict verdict);

        /** Opens the session's transport with {@code sink} (the probe's) instead of the session's sink. */
        void open(Deadline deadline, ProbeSink sink) throws InterruptedException;

        /** A probe sink in front of the session's sink (its {@code GUARD} stage fails the pending calls). */
        ProbeSink probeSink();

        /** Replaces the session's transport connection with a fresh one (the old one gone first). */
        void reopen(Deadline deadline) throws InterruptedException;

        /**
         * Runs {@code action} when the client closes (at once if it is closed already): how a close ends the wait
         * of a step that uses no transport of the session (the probe's).
         *
         * @return what unregisters the action
         */
        Runnable whenClosed(Runnable action);
    }

    private final McpTransport transport;
    private final ProtocolMode protocolMode;
    /** Where verdicts are kept across JVMs, or {@code null}. */
    private final EraVerdictFile eraVerdictFile;
    private final Duration probeTimeout;
    private final Handshake handshake;
    private final Discovery.Wrapping envelope;
    private final Host host;
    /** The discover result this setup adopted last (for the verdict cache). */
    private DiscoverResult adopted;

    /** A setup for one session; {@code eraVerdictFile} is {@code null} when verdicts stay in memory. */
    public EraSetup(McpTransport transport, ProtocolMode protocolMode, EraVerdictFile eraVerdictFile,
                    Duration probeTimeout, Handshake handshake, Discovery.Wrapping envelope, Host host) {
        this.transport = transport;
        this.protocolMode = protocolMode;
        this.eraVerdictFile = eraVerdictFile;
        this.probeTimeout = probeTimeout;
        this.handshake = handshake;
        this.envelope = envelope;
        this.host = host;
    }

    /**
     * Opens the transport and picks the era as the client's {@code ProtocolMode} says (MODERN-ERA.md C.2): the
     * legacy handshake, the modern {@code server/discover}, or the {@code AUTO} probe and fallback.
     *
     * @param options  the connect's options (the token)
     * @param deadline the connect deadline, which bounds every step
     * @return the era
     */
    public Era establish(RequestOptions options, Deadline deadline) throws InterruptedException {
        Optional<Era> forced = protocolMode.forcedEra();
        if (forced.isPresent()) {
            host.open(deadline);
            if (forced.get() == Era.LEGACY) {
                initializeLegacy(options, deadline);
            } else {
                discover(options, deadline, false, null);
            }
            return forced.get();
        }
        return auto(options, deadline);
    }

    /**
     * {@code ProtocolMode.AUTO}: the cached verdict (memory, then the verdict file), else the probe (C.2): on the
     * session's own connection when the transport can reopen it (stdio), on a throw-away transport when it offers
     * one, else {@code server/discover} on the connection (HTTP).
     */
    private Era auto(RequestOptions options, Deadline deadline) throws InterruptedException {
        String key = transport.serverKey().orElse(null);
        EraVerdicts.Verdict cached = EraVerdicts.get(key);
        if (cached == null && eraVerdictFile != null) {
            Era kept = eraVerdictFile.get(key);
            cached = kept == null ? null : EraVerdicts.put(key, kept, null);
        }
        if (cached != null && cached.era() == Era.MODERN && cached.fresh()) {
            host.open(deadline);
            adopt(cached.discover(), Discovery.mutualVersion(cached.discover().supportedVersions()));
            host.unverified(key, cached); // the first request checks the verdict
            LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe()
                    + ": modern (cached server/discover result)");
            return Era.MODERN;
        }
        if (cached != null && cached.era() == Era.LEGACY) {
            host.open(deadline);
            return initializeOrDiscover(options, deadline, key, cached, "cached legacy verdict");
        }
        if (transport.reopenable()) {
            // a cached modern verdict is checked by the same discover: the probe's
            return probeInPlace(options, deadline, key, cached);
        }
        if (cached != null) {
            host.open(deadline);
            // the discover on the session's own transport checks the verdict; legacy evidence drops it
            return discoverOrInitialize(options, deadline, key, cached);
        }
        Optional<McpTransport> probeTransport = transport.probeTransport();
        if (probeTransport.isPresent()) {
            Deadline probeDeadline = Deadline.after(probeTimeout).earliest(deadline);
            // the probe's transport is closed (and its process gone) before the session's opens: never two at once
            Discovery.Probe probe = Discovery.probeAside(probeTransport.get(), envelope, probeDeadline, deadline,
                    options.token().orElse(null), McpTransport::close, host::whenClosed);
            logVerdict(probe);
            host.open(deadline);
            if (probe.era() == Era.MODERN) {
                return modern(options, deadline, key, probe);
            }
            return initializeOrDiscover(options, deadline, key, null, "legacy verdict of the probe ("
                    + probe.evidence() + ")");
        }
        host.open(deadline);
        return discoverOrInitialize(options, deadline, key, null);
    }

    /**
     * The probe on the session's own connection (MCP 2026-07-28 "stdio: backward compatibility"; the reference
     * server answers {@code server/discover} with {@code -32601} and takes {@code initialize} on the same process):
     * a modern verdict keeps the connection; a legacy one runs {@code initialize} on it too, unless the probe (or
     * the handshake right after it) lost the connection: then the transport is reopened (the first process gone
     * before the second starts) and the fresh one gets {@code initialize} only.
     */
    private Era probeInPlace(RequestOptions options, Deadline deadline, String key, EraVerdicts.Verdict cached)
            throws InterruptedException {
        ProbeSink sink = host.probeSink();
        Deadline probeDeadline = Deadline.after(probeTimeout).earliest(deadline);
        Discovery.Probe probe = Discovery.probe(sink, s -> host.open(deadline, s), transport, envelope,
                probeDeadline, deadline, options.token().orElse(null), host::whenClosed);
        logVerdict(probe);
        if (probe.era() == Era.MODERN) {
            sink.handOver();
            return modern(options, deadline, key, probe);
        }
        forget(key, cached);
        String verdict = "legacy verdict of the probe (" + probe.evidence() + ")";
        if (!probe.lost()) {
            sink.guard();
            try {
                Era era = initializeOrDiscover(options, deadline, key, null, verdict);
                sink.handOver();
                return era;
            } catch (McpException e) {
                if (sink.lost() == null) {
                    throw e;
                }
                // the server answered the probe and then went away: the probe ended it after all
            }
        }
        if (deadline.isExpired()) {
            // a server silent until the transport gave up on it (its startup timeout) lost the connection at the
            // connect deadline: starting it again could only overrun that deadline
            throw new McpTimeoutException("connect timed out: the era probe (server/discover) lost the connection to "
                    + transport.describe() + " and no time is left to start it again");
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": the probe ended the "
                + "connection; opening a fresh one for initialize");
        host.reopen(deadline);
        return initializeOrDiscover(options, deadline, key, null, verdict);
    }

    private void logVerdict(Discovery.Probe probe) {
        LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": "
                + probe.era().name().toLowerCase(Locale.ROOT) + " (probe: " + probe.evidence() + ")");
    }

    /** A modern verdict of a probe: its result adopted, or (a recognized modern error) a discover that asks again. */
    private Era modern(RequestOptions options, Deadline deadline, String key, Discovery.Probe probe)
            throws InterruptedException {
        if (probe.discover() != null) {
            adopt(probe.discover(), Discovery.mutualVersion(probe.discover().supportedVersions()));
        } else {
            discover(options, deadline, false, "the probe found a modern server");
        }
        remember(key, Era.MODERN);
        return Era.MODERN;
    }

    /** Keeps a verdict in memory and, when configured, in the verdict file. */
    private void remember(String key, Era era) {
        EraVerdicts.put(key, era, era == Era.MODERN ? adopted : null);
        if (eraVerdictFile != null) {
            eraVerdictFile.put(key, era);
        }
    }

    /** Drops a verdict that failed, in memory and in the verdict file. */
    private void forget(String key, EraVerdicts.Verdict cached) {
        EraVerdicts.drop(key, cached);
        if (cached != null && eraVerdictFile != null) {
            eraVerdictFile.drop(key);
        }
    }

    /**
     * {@code initialize} on a verdict of legacy that came without asking this server process (a cached verdict, or a
     * probe that saw silence, for example a server slower to start than the probe timeout): when the server refuses
     * it with {@code -32022} it speaks only the modern era, so the verdict failed and {@code server/discover} on the
     * same connection decides (C.2: re-probe when the verdict fails).
     */
    private Era initializeOrDiscover(RequestOptions options, Deadline deadline, String key,
                                     EraVerdicts.Verdict cached, String verdict) throws InterruptedException {
        try {
            initializeLegacy(options, deadline);
            if (cached == null) {
                remember(key, Era.LEGACY);
            } // a kept verdict that initialize confirmed keeps its age: its time to live counts from the probe
            return Era.LEGACY;
        } catch (McpRpcException e) {
            if (e.code() != Discovery.UNSUPPORTED_VERSION) {
                throw e;
            }
            forget(key, cached);
            LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": " + verdict
                    + " refused by initialize with -32022; asking server/discover");
            discover(options, deadline, false, "it refused initialize with -32022 (an unsupported protocol version)");
            remember(key, Era.MODERN);
            return Era.MODERN;
        }
    }

    /**
     * {@code server/discover} on the session's own transport; legacy evidence in its answer (C.2 items 8 and 11)
     * leads to {@code initialize} (without routing, so an HTTP transport follows the 2025 rules).
     */
    private Era discoverOrInitialize(RequestOptions options, Deadline deadline, String key,
                                     EraVerdicts.Verdict cached) throws InterruptedException {
        String evidence = discover(options, deadline, true, null);
        if (evidence == null) {
            remember(key, Era.MODERN);
            return Era.MODERN;
        }
        forget(key, cached);
        LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": legacy (" + evidence + ")");
        initializeLegacy(options, deadline);
        remember(key, Era.LEGACY);
        return Era.LEGACY;
    }

    /** The legacy handshake: {@code initialize}, its checks, {@code notifications/initialized}. */
    private void initializeLegacy(RequestOptions options, Deadline deadline) throws InterruptedException {
        // a -32022 (a modern-only server naming its versions) reaches initializeOrDiscover as it came
        InitializeResult result = handshake.initialize(host::handshakeCall,
                Deadlines.within(options, deadline, "initialize"));
        host.initialized(result);
        handshake.confirm(result, deadline);
    }

    /**
     * Sends {@code server/discover} on the open transport and adopts a valid result that shares a modern version.
     *
     * @param auto     whether legacy evidence is an answer ({@code AUTO}) rather than a failure ({@code MODERN})
     * @param autoFact when {@code AUTO} mode already ruled the legacy era out, why (for the failure's message), else
     *                 {@code null} (the protocol mode forces the modern era)
     * @return {@code null} when adopted; in {@code AUTO} mode, the legacy evidence
     * @throws McpProtocolException when legacy evidence is a failure and the server does not speak the modern era
     *                              (the message names what it answered)
     */
    private String discover(RequestOptions options, Deadline deadline, boolean auto, String autoFact)
            throws InterruptedException {
        Map<String, Object> raw;
        try {
            raw = host.discover(Deadlines.within(options, deadline, "server/discover"), deadline);
        } catch (McpRpcException | McpTransportException | McpProtocolException e) {
            String evidence = Discovery.legacyEvidence(e);
            if (evidence == null) {
                if (auto && e instanceof McpTransportException t && t.httpStatus().orElse(0) >= 500) {
                    throw new ProbeFailure(t); // an outage, or a legacy server that fails on the unknown method
                }
                throw e; // a recognized modern error, an outage, an authorization failure: not era evidence
            }
            if (auto) {
                return evidence;
            }
            throw new McpProtocolException("server " + transport.describe() + " does not speak the modern protocol "
                    + "era (" + ProtocolMode.MODERN_PROTOCOL_VERSION + "): it answered server/discover with "
                    + evidence + " (" + e.getMessage() + ")" + (autoFact == null
                    ? "; connect in protocol mode AUTO or LEGACY" : ", and " + autoFact + ": it speaks neither era "
                    + "as this client does"), e);
        }
        DiscoverResult d = Discovery.parse(raw);
        if (d == null && !auto && raw.get("supportedVersions") instanceof List<?> listed
                && Discovery.mutualVersion(listed) == null) {
            // an invalid result that does list its versions, none of them this client's: not taken leniently, as a
            // valid one with those versions is not
            throw new McpProtocolException("server " + transport.describe() + " does not speak the modern protocol "
                    + "era: it answered server/discover with supportedVersions " + listed + ", none of which this "
                    + "client speaks (" + Discovery.MODERN_VERSIONS + "), in a result that is not a valid "
                    + "DiscoverResult; connect in protocol mode AUTO or LEGACY");
        }
        if (d == null && !auto) {
            // a forced modern era needs no evidence: a success that is not a valid DiscoverResult (some test servers
            // answer any method with {"resultType":"complete"}) is taken as the server's, with what it did say
            d = Discovery.lenient(raw, host.modernVersion());
            LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe() + " answered server/discover "
                    + "with a result that is not a valid DiscoverResult; speaking " + host.modernVersion() + " as the "
                    + "protocol mode says");
        }
        String problem = d == null ? "a result that is not a valid DiscoverResult"
                : Discovery.mutualVersion(d.supportedVersions()) == null
                ? "supportedVersions " + d.supportedVersions() + ", none of which this client speaks ("
                        + Discovery.MODERN_VERSIONS + ")" : null;
        if (problem != null) {
            if (auto) {
                return problem;
            }
            throw new McpProtocolException("server " + transport.describe() + " does not speak the modern protocol "
                    + "era: it answered server/discover with " + problem + "; connect in protocol mode AUTO or "
                    + "LEGACY");
        }
        adopt(d, Discovery.mutualVersion(d.supportedVersions()));
        return null;
    }

    private void adopt(DiscoverResult result, String version) {
        adopted = result;
        host.adopt(result, version);
    }

    /**
     * The failure of {@code ProtocolMode.AUTO}'s {@code server/discover} with an HTTP 5xx: not era evidence (it may
     * be an outage), so {@code connect()} fails, naming the way out for a 2025-era server that answers an unknown
     * method with a server error. Carries the status and the original failure as its cause.
     */
    static final class ProbeFailure extends McpTransportException {
        private final McpTransportException failure;

        ProbeFailure(McpTransportException failure) {
            super("the era probe (server/discover) failed: " + failure.getMessage() + "; if this is a 2025-era "
                    + "server that fails on requests it does not know, connect in the legacy era "
                    + "(ProtocolMode.LEGACY; CLI: --protocol legacy)", failure);
            this.failure = failure;
        }

        @Override
        public java.util.OptionalInt httpStatus() {
            return failure.httpStatus();
        }
    }
}
