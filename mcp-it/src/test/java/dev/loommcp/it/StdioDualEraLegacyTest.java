package dev.loommcp.it;

import dev.loommcp.testkit.ModernFixture;
import java.util.List;

/** The legacy-era contract over stdio against the dual-era fixture, era forced to LEGACY. */
class StdioDualEraLegacyTest extends DualEraLegacyContract {

    @Override
    protected List<String> stdioCommand() {
        return ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA);
    }
}
