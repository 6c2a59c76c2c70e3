package dev.loommcp.transport.http;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * What a builder of {@link HttpTransport} or {@link SseTransport} has been told so far, checked as it is told, and
 * the {@link HttpSettings} it makes ({@link #settings()}): the work of both public builders, which only document
 * and delegate. Not thread-safe (as the builders); each {@link #settings()} is a snapshot.
 */
final class SettingsDraft {

    private final URI endpoint;
    private final HttpConnector connector;
    private final HttpConnector.Route route;
    private Headers headers = Headers.NONE;
    private Duration connectTimeout = HttpSettings.DEFAULT_CONNECT_TIMEOUT;
    private Duration idleTimeout = HttpSettings.DEFAULT_IDLE_TIMEOUT;
    private RequestSigner signer;
    private AuthorizationProvider authorization;
    private Path certChain;
    private Path privateKey;
    private Path pkcs12;
    private char[] pkcs12Password;
    private Path trustedCertificates;
    private SSLContext sslContext;
    private int maxMessageBytes = HttpSettings.DEFAULT_MAX_MESSAGE_BYTES;
    private Duration reconnectDelay = Duration.ofMillis(HttpSettings.DEFAULT_RETRY_MILLIS);

    /**
     * @param connector the connector of a non-http(s) endpoint, or {@code null}
     * @throws IllegalArgumentException as {@link HttpTransport#newBuilder(URI)}
     */
    SettingsDraft(URI endpoint, HttpConnector connector) {
        Objects.requireNonNull(endpoint, "endpoint");
        this.connector = connector;
        if (connector != null) {
            this.route = Objects.requireNonNull(connector.route(endpoint), "the connector's route");
            this.endpoint = endpoint;
            return;
        }
        this.route = null;
        if (!endpoint.isAbsolute() || endpoint.getScheme() == null
                || !(endpoint.getScheme().equalsIgnoreCase("http")
                || endpoint.getScheme().equalsIgnoreCase("https"))) {
            throw new IllegalArgumentException("the endpoint must be an absolute http or https URI");
        }
        if (endpoint.getHost() == null || endpoint.getHost().isEmpty()) {
            throw new IllegalArgumentException("the endpoint has no host");
        }
        if (endpoint.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the endpoint must not carry user info (user:password@); send "
                    + "credentials in an Authorization header instead");
        }
        if (endpoint.getPort() > 65535) {
            throw new IllegalArgumentException("the endpoint's port " + endpoint.getPort()
                    + " is out of range (1-65535)");
        }
        this.endpoint = endpoint;
    }

    /** {@link HttpTransport.Builder#header}. */
    void header(String name, String value) {
        String problem = HeaderRules.problem(name, value);
        if (problem != null) {
            throw new IllegalArgumentException("cannot add " + problem);
        }
        headers = headers.plus(name, value);
    }

    void connectTimeout(Duration timeout) {
        this.connectTimeout = positive(timeout, "connectTimeout");
    }

    void idleTimeout(Duration timeout) {
        this.idleTimeout = positive(timeout, "idleTimeout");
    }

    void reconnectDelay(Duration delay) {
        this.reconnectDelay = positive(delay, "reconnectDelay");
    }

    void requestSigner(RequestSigner s) {
        this.signer = s;
    }

    void authorization(AuthorizationProvider provider) {
        this.authorization = provider;
    }

    void clientIdentityPem(Path certificateChain, Path pkcs8PrivateKey) {
        this.certChain = Objects.requireNonNull(certificateChain, "certificateChain");
        this.privateKey = Objects.requireNonNull(pkcs8PrivateKey, "pkcs8PrivateKey");
        this.pkcs12 = null;
        clearPassword();
    }

    void clientIdentityPkcs12(Path keyStore, char[] password) {
        this.pkcs12 = Objects.requireNonNull(keyStore, "keyStore");
        clearPassword();
        this.pkcs12Password = Objects.requireNonNull(password, "password").clone();
        this.certChain = null;
        this.privateKey = null;
    }

    void trustedCertificatesPem(Path pemFile) {
        this.trustedCertificates = Objects.requireNonNull(pemFile, "pemFile");
    }

    void sslContext(SSLContext context) {
        this.sslContext = context;
    }

    void maxMessageSize(int bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxMessageSize must be positive");
        }
        this.maxMessageBytes = bytes;
    }

    /**
     * The settings of a transport built now (TLS material given as files is read now).
     *
     * @throws IllegalStateException as {@link HttpTransport.Builder#build()}
     * @throws dev.loommcp.McpTransportException if TLS material cannot be read
     */
    HttpSettings settings() {
        boolean fileTls = certChain != null || pkcs12 != null || trustedCertificates != null;
        if (sslContext != null && fileTls) {
            throw new IllegalStateException("sslContext cannot be combined with clientIdentityPem, "
                    + "clientIdentityPkcs12 or trustedCertificatesPem");
        }
        if (connector != null && (sslContext != null || fileTls)) {
            throw new IllegalStateException("TLS settings apply to https endpoints only, not to "
                    + connector.scheme() + ": endpoints");
        }
        SSLContext ssl = sslContext;
        if (fileTls) {
            ssl = TlsMaterial.build(certChain, privateKey, pkcs12, pkcs12Password, trustedCertificates);
        }
        return new HttpSettings(endpoint, connector, route, headers, connectTimeout, idleTimeout, signer,
                authorization, ssl, maxMessageBytes, reconnectDelay, tlsDescription());
    }

    private String tlsDescription() {
        if (sslContext != null) {
            return "caller context";
        }
        String id = certChain != null ? "PEM identity" : pkcs12 != null ? "PKCS#12 identity" : "default";
        return trustedCertificates != null ? id + " + trusted PEM" : id;
    }

    private void clearPassword() {
        if (pkcs12Password != null) {
            Arrays.fill(pkcs12Password, '\0');
            pkcs12Password = null;
        }
    }

    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive");
        }
        if (d.compareTo(Duration.ofDays(365)) > 0) {
            throw new IllegalArgumentException(what + " must be at most 365 days, got " + d);
        }
        return d;
    }

    /** Describes the settings; header values and the endpoint's path and query are redacted. */
    String describe() {
        return HttpSettings.describeConfig(route != null ? route.origin() : HttpSettings.originOf(endpoint),
                route != null ? route.requestUri() : endpoint, headers, signer != null, authorization != null,
                tlsDescription());
    }
}
