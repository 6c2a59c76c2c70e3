package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The non-interactive handler reads the Location of the authorization server's redirect. */
@ExtendWith(LeakCheck.class)
class NonInteractiveHandlerTest {

    HttpServer server;
    String base;

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/authorize", ex -> {
            try (ex) {
                ex.getResponseHeaders().set("Location", "/cb?code=c1&state=s1");
                ex.sendResponseHeaders(302, -1);
            }
        });
        server.createContext("/page", ex -> {
            try (ex) {
                ex.sendResponseHeaders(200, -1);
            }
        });
        server.createContext("/nolocation", ex -> {
            try (ex) {
                ex.sendResponseHeaders(302, -1);
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
    }

    @Test
    void returnsTheResolvedLocation() throws Exception {
        AuthorizationCodeHandler h = AuthorizationCodeHandler.nonInteractive(URI.create("http://localhost:3000/cb"));
        assertThat(h.redirectUri()).isEqualTo(URI.create("http://localhost:3000/cb"));
        assertThat(h.authorize(URI.create(base + "/authorize?x=1"), "s1", Deadline.after(Duration.ofSeconds(30))))
                .isEqualTo(URI.create(base + "/cb?code=c1&state=s1"));
    }

    @Test
    void anythingButARedirectIsANamedFailure() {
        AuthorizationCodeHandler h = AuthorizationCodeHandler.nonInteractive(URI.create("http://localhost:3000/cb"));
        assertThatThrownBy(() -> h.authorize(URI.create(base + "/page?secret=x"), "s", Deadline.NONE))
                .isInstanceOf(IOException.class).hasMessageContaining("HTTP 200").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> h.authorize(URI.create(base + "/nolocation"), "s", Deadline.NONE))
                .isInstanceOf(IOException.class).hasMessageContaining("without a Location");
    }

    @Test
    void refusesARelativeRedirectUri() {
        assertThatThrownBy(() -> AuthorizationCodeHandler.nonInteractive(URI.create("/cb")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AuthorizationCodeHandler.nonInteractive(null))
                .isInstanceOf(NullPointerException.class);
    }
}
