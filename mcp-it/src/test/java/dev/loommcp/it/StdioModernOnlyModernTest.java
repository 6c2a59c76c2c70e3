package dev.loommcp.it;

import static dev.loommcp.testkit.ModernFixture.Variant.MODERN_ONLY;

import dev.loommcp.config.ProtocolMode;

/** The modern-era contract over stdio against the modern-only fixture with the era forced to MODERN. */
class StdioModernOnlyModernTest extends StdioModernEraContract {
    StdioModernOnlyModernTest() {
        super(MODERN_ONLY, ProtocolMode.MODERN);
    }
}
