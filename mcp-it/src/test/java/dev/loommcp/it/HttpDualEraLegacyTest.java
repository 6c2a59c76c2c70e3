package dev.loommcp.it;

import dev.loommcp.testkit.ModernFixture;

/** The legacy-era contract over Streamable HTTP against the dual-era fixture (its stateless legacy leg). */
class HttpDualEraLegacyTest extends DualEraLegacyContract {

    @Override
    protected ModernFixture.Variant httpServer() {
        return ModernFixture.Variant.DUAL_ERA;
    }
}
