package dev.loommcp.it;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.testkit.ModernFixture;

/** The modern-era contract over Streamable HTTP: one fixture server for the class, shared by its clients. */
abstract class HttpModernEraContract extends ModernEraContract {

    HttpModernEraContract(ModernFixture.Variant variant, ProtocolMode mode) {
        super(variant, mode);
    }

    @Override
    protected ModernFixture.Variant httpServer() {
        return variant();
    }
}
