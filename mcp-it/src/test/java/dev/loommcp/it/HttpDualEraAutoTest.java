package dev.loommcp.it;

import static dev.loommcp.testkit.ModernFixture.Variant.DUAL_ERA;

import dev.loommcp.config.ProtocolMode;

/** The modern-era contract over Streamable HTTP against the dual-era fixture in AUTO. */
class HttpDualEraAutoTest extends HttpModernEraContract {
    HttpDualEraAutoTest() {
        super(DUAL_ERA, ProtocolMode.AUTO);
    }
}
