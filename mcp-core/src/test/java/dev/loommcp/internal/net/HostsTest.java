package dev.loommcp.internal.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The https-or-loopback rule and what counts as a loopback host (from the text, without a lookup). */
class HostsTest {

    @ParameterizedTest
    @CsvSource({
        "localhost, true", "LOCALHOST, true", "localhost., true", "127.0.0.1, true", "127.255.1.2, true",
        "[::1], true", "::1, true", "[0:0:0:0:0:0:0:1], true", "[::ffff:127.0.0.1], true",
        "127.evil.example, false", "127.0.0.1.evil.example, false", "localhost.evil.example, false",
        "128.0.0.1, false", "10.0.0.1, false", "0.0.0.0, false", "[::], false", "[fe80::1], false",
        "127.0.0.256, false", "127.0.0, false", "0177.0.0.1, false", "example.com, false", "'', false"})
    void loopbackHosts(String host, boolean loopback) {
        assertThat(Hosts.isLoopback(host)).isEqualTo(loopback);
    }

    @ParameterizedTest
    @CsvSource({
        "https://example.com/x, true", "HTTPS://example.com, true", "http://127.0.0.1:9/cb, true",
        "http://localhost/cb, true", "http://[::1]/cb, true", "http://example.com/x, false",
        "http://127.evil.example/x, false", "ftp://localhost/x, false", "javascript:alert(1), false",
        "file:///etc/passwd, false", "https:opaque, false", "/relative, false"})
    void httpsOrLoopbackHttp(String uri, boolean ok) {
        assertThat(Hosts.isHttpsOrLoopbackHttp(URI.create(uri))).isEqualTo(ok);
    }
}
