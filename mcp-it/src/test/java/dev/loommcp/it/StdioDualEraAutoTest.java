package dev.loommcp.it;

import static dev.loommcp.testkit.ModernFixture.Variant.DUAL_ERA;

import dev.loommcp.config.ProtocolMode;

/** The modern-era contract over stdio against the dual-era fixture in AUTO (the probe finds the modern era). */
class StdioDualEraAutoTest extends StdioModernEraContract {
    StdioDualEraAutoTest() {
        super(DUAL_ERA, ProtocolMode.AUTO);
    }
}
