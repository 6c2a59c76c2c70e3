package dev.loommcp.internal.session.era;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 1: the era verdicts AUTO keeps across JVMs ({@link EraVerdictFile}): owner-only directory and file,
 * only digests of the server keys on disk, the time to live, forgetting, and a corrupt or foreign file ignored.
 */
class EraVerdictFileTest {

    @TempDir
    Path dir;

    private static final String KEY = "stdio:/usr/bin/node server.js --token=secret-value";

    @Test
    void aVerdictIsKeptOwnerOnlyUnderADigestOfTheKey() throws Exception {
        Path file = dir.resolve("cache").resolve("loom-mcp").resolve("era-verdicts.json");
        EraVerdictFile verdicts = new EraVerdictFile(file, Duration.ofHours(1));
        assertThat(verdicts.get(KEY)).isNull();
        verdicts.put(KEY, Era.LEGACY);
        verdicts.put("http://127.0.0.1:1/mcp?tenant=a", Era.MODERN);

        EraVerdictFile again = new EraVerdictFile(file, Duration.ofHours(1)); // as a new JVM reads it
        assertThat(again.get(KEY)).isEqualTo(Era.LEGACY);
        assertThat(again.get("http://127.0.0.1:1/mcp?tenant=a")).isEqualTo(Era.MODERN);
        assertThat(again.get("http://127.0.0.1:1/mcp?tenant=b")).isNull();
        assertThat(again.get(null)).isNull();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(Files.readString(file)).doesNotContain("secret-value").doesNotContain("node")
                .doesNotContain("tenant").contains("\"legacy\"", "\"modern\"");
        try (var left = Files.list(file.getParent())) {
            assertThat(left).as("no temporary file is left").containsExactly(file);
        }
    }

    @Test
    void aDroppedVerdictIsForgottenAndAnExpiredOneIgnored() throws Exception {
        Path file = dir.resolve("v.json");
        EraVerdictFile verdicts = new EraVerdictFile(file, Duration.ofHours(1));
        verdicts.put(KEY, Era.MODERN);
        verdicts.drop(KEY);
        assertThat(verdicts.get(KEY)).isNull();

        verdicts.put(KEY, Era.LEGACY);
        // written an hour and a second ago
        String old = Files.readString(file).replaceAll("\"at\":\\d+",
                "\"at\":" + (System.currentTimeMillis() - Duration.ofHours(1).plusSeconds(1).toMillis()));
        Files.writeString(file, old);
        assertThat(verdicts.get(KEY)).isNull();
        assertThat(new EraVerdictFile(file, Duration.ofHours(2)).get(KEY)).isEqualTo(Era.LEGACY);
    }

    @Test
    void aCorruptOrForeignFileIsIgnoredAndReplaced() throws Exception {
        Path file = dir.resolve("v.json");
        EraVerdictFile verdicts = new EraVerdictFile(file, Duration.ofHours(1));
        for (String content : new String[] {"{ not json", "[]", "{\"version\":2,\"verdicts\":{}}",
                "{\"version\":1,\"verdicts\":{\"x\":\"legacy\"}}", ""}) {
            Files.writeString(file, content);
            assertThat(verdicts.get(KEY)).as(content).isNull();
        }
        Files.write(file, new byte[EraVerdictFile.MAX_BYTES + 1]);
        assertThat(verdicts.get(KEY)).isNull();
        verdicts.put(KEY, Era.LEGACY);
        assertThat(verdicts.get(KEY)).isEqualTo(Era.LEGACY);
    }

    @Test
    void anUnwritableLocationNeverFails() throws Exception {
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "a file where the directory should be");
        EraVerdictFile verdicts = new EraVerdictFile(blocker.resolve("loom-mcp").resolve("v.json"),
                Duration.ofHours(1));
        verdicts.put(KEY, Era.LEGACY); // logged at DEBUG, not thrown
        assertThat(verdicts.get(KEY)).isNull();
    }

    @Test
    void theDefaultFileFollowsXdgCacheHome() {
        Path home = Path.of("/home/u");
        assertThat(EraVerdictFile.defaultFile(Map.of("XDG_CACHE_HOME", "/x/cache"), home))
                .isEqualTo(Path.of("/x/cache/loom-mcp/era-verdicts.json"));
        assertThat(EraVerdictFile.defaultFile(Map.of(), home))
                .isEqualTo(Path.of("/home/u/.cache/loom-mcp/era-verdicts.json"));
        assertThat(EraVerdictFile.defaultFile(Map.of("XDG_CACHE_HOME", "relative"), home))
                .isEqualTo(Path.of("/home/u/.cache/loom-mcp/era-verdicts.json"));
        assertThatThrownBy(() -> new EraVerdictFile(home, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
