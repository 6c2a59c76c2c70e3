package dev.loommcp.it;

import static dev.loommcp.testkit.ModernFixture.Variant.MODERN_ONLY;

import dev.loommcp.config.ProtocolMode;

/** The modern-era contract over Streamable HTTP against the modern-only fixture, pinned to 2026-07-28. */
class HttpModernOnlyPinnedTest extends HttpModernEraContract {
    HttpModernOnlyPinnedTest() {
        super(MODERN_ONLY, ProtocolMode.pinned(ProtocolMode.MODERN_PROTOCOL_VERSION));
    }
}
