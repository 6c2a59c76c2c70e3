package dev.loommcp.internal.session;

import dev.loommcp.Era;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTransportException;
import dev.loommcp.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.McpTransport;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a connect picks the protocol era (MODERN-ERA.md C.2; MCP 2026-07-28 "Versioning: backward compatibility"):
 * the legacy handshake, the modern {@code server/discover}, or the {@code ProtocolMode.AUTO} probe (on a throw-away
 * transport where the transport offers one) and its fallbacks, with the per-server verdicts of {@link EraVerdicts}.
 * It holds no session state: what it learns goes to the session through {@link Host}. Used once per connect, on the
 * connecting thread.
 */
final class EraSetup {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** What the era setup needs of the session. */
    interface Host {
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

        /** Closes a probe transport without making the connect wait for it. */
        void closeProbe(McpTransport probe);

        /**
         * Runs {@code action} when the client closes (at once if it is closed already): how a close ends the wait
         * of a step that uses no transport of the session (the probe's).
         *
         * @return what unregisters the action
         */
        Runnable whenClosed(Runnable action);
    }

    private final SessionConfig config;
    private final McpTransport transport;
    private final Handshake handshake;
    private final Envelope envelope;
    private final Host host;
    /** The discover result this setup adopted last (for the verdict cache). */
    private DiscoverResult adopted;

    EraSetup(SessionConfig config, Handshake handshake, Envelope envelope, Host host) {
        this.config = config;
        this.transport = config.transport();
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
    Era establish(RequestOptions options, Deadline deadline) throws InterruptedException {
        Optional<Era> forced = config.protocolMode().forcedEra();
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

    /** {@code ProtocolMode.AUTO}: the cached verdict, else the probe (C.2). */
    private Era auto(RequestOptions options, Deadline deadline) throws InterruptedException {
        String key = transport.serverKey();
        EraVerdicts.Verdict cached = EraVerdicts.get(key);
        if (cached != null && cached.era() == Era.MODERN) {
            host.open(deadline);
            if (cached.fresh()) {
                adopt(cached.discover(), Discovery.mutualVersion(cached.discover().supportedVersions()));
                host.unverified(key, cached); // the first request checks the verdict
                LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe()
                        + ": modern (cached server/discover result)");
                return Era.MODERN;
            }
            // the discover on the session's own transport checks the verdict; legacy evidence drops it
            return discoverOrInitialize(options, deadline, key, cached);
        }
        if (cached != null) {
            host.open(deadline);
            return initializeOrDiscover(options, deadline, key, cached, "cached legacy verdict");
        }
        Optional<McpTransport> probeTransport = transport.probeTransport();
        if (probeTransport.isPresent()) {
            Deadline probeDeadline = Deadline.after(config.probeTimeout()).earliest(deadline);
            Discovery.Probe probe = Discovery.probe(probeTransport.get(), envelope, probeDeadline, deadline,
                    options.token().orElse(null), host::closeProbe, host::whenClosed);
            LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": "
                    + probe.era().name().toLowerCase(Locale.ROOT) + " (probe: " + probe.evidence() + ")");
            host.open(deadline);
            if (probe.era() == Era.MODERN) {
                if (probe.discover() != null) {
                    adopt(probe.discover(), Discovery.mutualVersion(probe.discover().supportedVersions()));
                } else {
                    // a recognized modern error: ask again, surface the error
                    discover(options, deadline, false, "the probe found a modern server");
                }
                EraVerdicts.put(key, Era.MODERN, adopted);
                return Era.MODERN;
            }
            return initializeOrDiscover(options, deadline, key, null, "legacy verdict of the probe ("
                    + probe.evidence() + ")");
        }
        host.open(deadline);
        return discoverOrInitialize(options, deadline, key, null);
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
            EraVerdicts.put(key, Era.LEGACY, null);
            return Era.LEGACY;
        } catch (McpRpcException e) {
            if (e.code() != Discovery.UNSUPPORTED_VERSION) {
                throw e;
            }
            EraVerdicts.drop(key, cached);
            LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": " + verdict
                    + " refused by initialize with -32022; asking server/discover");
            discover(options, deadline, false, "it refused initialize with -32022 (an unsupported protocol version)");
            EraVerdicts.put(key, Era.MODERN, adopted);
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
            EraVerdicts.put(key, Era.MODERN, adopted);
            return Era.MODERN;
        }
        EraVerdicts.drop(key, cached);
        LOG.log(System.Logger.Level.DEBUG, () -> "era of " + transport.describe() + ": legacy (" + evidence + ")");
        initializeLegacy(options, deadline);
        EraVerdicts.put(key, Era.LEGACY, null);
        return Era.LEGACY;
    }

    /** The legacy handshake: {@code initialize}, its checks, {@code notifications/initialized}. */
    private void initializeLegacy(RequestOptions options, Deadline deadline) throws InterruptedException {
        InitializeResult result;
        try {
            result = handshake.initialize(host::handshakeCall,
                    Session.within(options, deadline, "initialize"));
        } catch (McpRpcException e) {
            throw ModernRequests.typed("initialize", e); // -32022: a modern-only server names its versions
        }
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
            raw = host.discover(Session.within(options, deadline, "server/discover"), deadline);
        } catch (McpRpcException | McpTransportException e) {
            String evidence = Discovery.legacyEvidence(e);
            if (evidence == null) {
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
}
