package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.it.servers.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers' own checks: a missing pinned Node package is named before any server starts (an emptied
 * {@code node_modules} once made every launch fail with a bare "server-everything exited with 1").
 */
class TestkitLaunchersTest {

    @Test
    void aMissingPackageIsNamedWithTheFix(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("node_modules"));
        assertThatThrownBy(() -> ReferenceServer.requireInstalled(dir, "@modelcontextprotocol/server"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@modelcontextprotocol/server")
                .hasMessageContaining("npm ci")
                .hasMessageContaining(dir.toString());
        Path pkg = Files.createDirectories(dir.resolve("node_modules/@modelcontextprotocol/server"));
        Files.writeString(pkg.resolve("package.json"), "{}");
        ReferenceServer.requireInstalled(dir, "@modelcontextprotocol/server");
    }

    @Test
    void theCommandsNameTheScriptsAndTheirFlags() {
        assertThat(ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA))
                .endsWith("--stdio", "--legacy", "serve");
        assertThat(ModernFixture.httpCommand(ModernFixture.Variant.MODERN_ONLY))
                .endsWith("--http", "0", "--legacy", "reject");
        assertThat(ModernFixture.script()).exists();
        assertThat(ModernFixture.silentLegacyCommand()).last().isEqualTo("--silent");
        assertThat(ModernFixture.exitingLegacyCommand()).last().isEqualTo("--exit-on-probe");
        assertThat(Path.of(ModernFixture.silentLegacyCommand().get(1))).exists();
    }
}
