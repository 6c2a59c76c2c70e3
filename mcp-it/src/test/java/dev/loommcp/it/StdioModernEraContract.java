package dev.loommcp.it;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.testkit.ModernFixture;
import java.util.List;

/** The modern-era contract over stdio: a fixture process per client (and, in AUTO, a throw-away probe process). */
abstract class StdioModernEraContract extends ModernEraContract {

    StdioModernEraContract(ModernFixture.Variant variant, ProtocolMode mode) {
        super(variant, mode);
    }

    @Override
    protected List<String> stdioCommand() {
        return ModernFixture.stdioCommand(variant());
    }
}
