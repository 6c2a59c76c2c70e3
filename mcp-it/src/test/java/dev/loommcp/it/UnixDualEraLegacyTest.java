package dev.loommcp.it;

/** The legacy-era contract against the dual-era fixture, over Streamable HTTP on a unix socket. */
class UnixDualEraLegacyTest extends HttpDualEraLegacyTest {

    @Override
    protected boolean unixSocket() {
        return true;
    }
}
