package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The modern-era contract against the dual-era fixture in AUTO, over Streamable HTTP on a unix socket. */
class UnixDualEraAutoTest extends HttpDualEraAutoTest {

    @Override
    protected boolean unixSocket() {
        return true;
    }

    @Test
    void theClassRunsOverAUnixSocket() {
        assertThat(endpoint().getScheme()).isEqualTo("unix");
    }
}
