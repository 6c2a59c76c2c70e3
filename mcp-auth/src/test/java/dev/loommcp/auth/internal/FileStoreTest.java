package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.FileTokenStore;
import dev.loommcp.auth.TokenSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is particular to the file token store: its format, permissions, atomic replacement and failures. */
class FileStoreTest {

    private static final String RES = "https://mcp.example.com/mcp";
    private static final String ISS = "https://as.example.com";
    private static final String SECRET = "SeCrEt-VaLuE-42";

    @TempDir
    Path tmp;

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static String perms(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void everyFieldSurvivesAReopenExactly() throws IOException {
        Path dir = tmp.resolve("cache");
        FileTokenStore first = FileTokenStore.open(dir);
        TokenSet odd = new TokenSet("https://as.example.com/tenant \"x\" \\ é", "at.\u0001\n\"quoted\"", "DPoP",
                "rt/+=", Instant.parse("2026-12-01T07:00:00.123456789Z"), "a b offline_access");
        TokenSet minimal = new TokenSet(ISS, "at", "Bearer", null, null, null);
        ClientRegistration reg = new ClientRegistration(ISS, "client", "sec\"ret", "client_secret_basic",
                Instant.parse("2027-01-01T00:00:00Z"));
        ClientRegistration pub = new ClientRegistration("https://as2.example", "https://app.example/c.json", null,
                "none", null);
        first.saveTokens("https://mcp.example.com/ü?q=1", odd);
        first.saveTokens("https://mcp.example.com/ü?q=1", minimal);
        first.saveRegistration(reg);
        first.saveRegistration(pub);
        FileTokenStore second = FileTokenStore.open(dir);
        assertThat(second.tokens("https://mcp.example.com/ü?q=1", odd.issuer())).contains(odd);
        assertThat(second.tokens("https://mcp.example.com/ü?q=1", ISS)).contains(minimal);
        assertThat(second.issuers("https://mcp.example.com/ü?q=1")).containsExactly(ISS, odd.issuer());
        assertThat(second.registration(ISS)).contains(reg);
        assertThat(second.registration("https://as2.example")).contains(pub);
        // a stale set read in one store instance is compared with what the file holds now
        assertThat(second.removeTokens("https://mcp.example.com/ü?q=1", odd)).isTrue();
        assertThat(first.tokens("https://mcp.example.com/ü?q=1", odd.issuer())).isEmpty();
        String text = Files.readString(dir.resolve(FileStore.FILE_NAME));
        assertThat(text).contains("\"format\":\"loom-mcp-token-store\"", "\"version\":1");
    }

    @Test
    void aCreatedDirectoryAndEveryFileAreOwnerOnly() throws IOException {
        assumeThat(posix(tmp)).as("POSIX file system").isTrue();
        Path dir = tmp.resolve("a/b/cache");
        FileTokenStore s = FileTokenStore.open(dir);
        assertThat(perms(dir)).isEqualTo("rwx------");
        s.saveTokens(RES, new TokenSet(ISS, "at", "Bearer", null, null, null));
        assertThat(perms(dir.resolve(FileStore.FILE_NAME))).isEqualTo("rw-------");
        assertThat(perms(dir.resolve(FileStore.LOCK_NAME))).isEqualTo("rw-------");
        assertThat(dir.resolve(FileStore.TEMP_NAME)).doesNotExist();
    }

    @Test
    void anExistingDirectoryIsUsedAsItIsButTheFileIsReplacedOwnerOnly() throws IOException {
        assumeThat(posix(tmp)).as("POSIX file system").isTrue();
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path file = dir.resolve(FileStore.FILE_NAME);
        Files.writeString(file, "");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        // a temporary file left by a crash, readable by others: replaced, never reused
        Path temp = dir.resolve(FileStore.TEMP_NAME);
        Files.writeString(temp, "{\"half");
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-rw-rw-"));
        FileTokenStore s = FileTokenStore.open(dir);
        s.saveTokens(RES, new TokenSet(ISS, "at", "Bearer", null, null, null));
        assertThat(perms(dir)).isEqualTo("rwxr-xr-x");
        assertThat(perms(file)).isEqualTo("rw-------");
        assertThat(temp).doesNotExist();
        assertThat(FileTokenStore.open(dir).tokens(RES, ISS)).isPresent();
    }

    @Test
    void anEmptyFileIsAnEmptyStore() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("c"));
        Files.writeString(dir.resolve(FileStore.FILE_NAME), "");
        assertThat(FileTokenStore.open(dir).issuers(RES)).isEmpty();
    }

    /** Contents that are not a token store, each quoting a secret that no message may repeat. */
    private static List<String[]> badContents() {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[" + SECRET,
                "not valid JSON at line 1, column "});
        rows.add(new String[] {SECRET, "not valid JSON"});
        rows.add(new String[] {"\u00ff\u00fe" + SECRET, "not valid JSON"});
        rows.add(new String[] {"{\"accessToken\":\"" + SECRET + "\"}", "not a loom-mcp token store"});
        rows.add(new String[] {"[\"" + SECRET + "\"]", "not a loom-mcp token store"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":2,\"tokens\":[],\"x\":\"" + SECRET
                + "\"}", "version"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":\"1\"}", "version"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":{\"a\":\"" + SECRET
                + "\"}}", "\"tokens\" is not an array"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[\"" + SECRET
                + "\"]}", "tokens[0] is not an object"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[{\"resource\":\"r\","
                + "\"issuer\":\"i\",\"tokenType\":\"Bearer\",\"refreshToken\":\"" + SECRET + "\"}]}",
                "tokens[0].accessToken is missing"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[{\"resource\":\"r\","
                + "\"issuer\":\"i\",\"accessToken\":7,\"tokenType\":\"Bearer\"}]}",
                "tokens[0].accessToken is not a string"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[{\"resource\":\"r\","
                + "\"issuer\":\"i\",\"accessToken\":\"" + SECRET + "\",\"tokenType\":\"Bearer\",\"expiresAt\":\""
                + SECRET + "\"}]}", "tokens[0].expiresAt is not an ISO-8601 instant"});
        String entry = "{\"resource\":\"r\",\"issuer\":\"i\",\"accessToken\":\"" + SECRET
                + "\",\"tokenType\":\"Bearer\"}";
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"tokens\":[" + entry + ","
                + entry + "]}", "tokens[1] repeats a resource and issuer"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"registrations\":[{\"issuer\":"
                + "\"i\",\"clientSecret\":\"" + SECRET + "\",\"tokenEndpointAuthMethod\":\"none\"}]}",
                "registrations[0].clientId is missing"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"leases\":[{\"resource\":\"r\","
                + "\"issuer\":\"i\",\"holder\":\"" + SECRET + "\",\"fence\":\"1\",\"until\":\"2026-12-01T00:00:00Z\"}]}",
                "leases[0].fence is missing or not an integer"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"leases\":[{\"resource\":\"r\","
                + "\"issuer\":\"i\",\"holder\":\"" + SECRET + "\",\"fence\":1}]}", "leases[0].until is missing"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1,\"version\":1,\"s\":\"" + SECRET
                + "\"}", "not valid JSON"});
        rows.add(new String[] {"{\"format\":\"loom-mcp-token-store\",\"version\":1} {\"" + SECRET + "\":1}",
                "not valid JSON"});
        return rows;
    }

    @Test
    void aCorruptOrForeignFileFailsTheOpenNamingTheFileNeverItsContent() throws IOException {
        int n = 0;
        for (String[] row : badContents()) {
            Path dir = Files.createDirectory(tmp.resolve("bad" + n++));
            Path file = dir.resolve(FileStore.FILE_NAME);
            byte[] content = row[0].getBytes(StandardCharsets.ISO_8859_1);
            Files.write(file, content);
            assertThatThrownBy(() -> FileTokenStore.open(dir)).as(row[1])
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining(row[1])
                    .satisfies(e -> assertNoSecretInChain(e));
            assertThat(Files.readAllBytes(file)).as("left as is").isEqualTo(content);
        }
    }

    @Test
    void aFileCorruptedLaterFailsEveryOperationUncheckedAndIsLeftAsIs() throws IOException {
        Path dir = tmp.resolve("c");
        FileTokenStore s = FileTokenStore.open(dir);
        TokenSet t = new TokenSet(ISS, "at", "Bearer", null, null, null);
        s.saveTokens(RES, t);
        Path file = dir.resolve(FileStore.FILE_NAME);
        byte[] garbage = ("{\"accessToken\":\"" + SECRET + "\"").getBytes(StandardCharsets.UTF_8);
        Files.write(file, garbage);
        List<Runnable> ops = List.of(() -> s.tokens(RES, ISS), () -> s.issuers(RES), () -> s.saveTokens(RES, t),
                () -> s.removeTokens(RES, t), () -> s.removeAllTokens(RES), () -> s.registration(ISS),
                () -> s.saveRegistration(new ClientRegistration(ISS, "c", null, "none", null)),
                () -> s.removeRegistration(new ClientRegistration(ISS, "c", null, "none", null)));
        for (Runnable op : ops) {
            assertThatThrownBy(op::run).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("not valid JSON")
                    .satisfies(e -> assertNoSecretInChain(e));
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(garbage);
        // repaired (removed): usable again, same instance
        Files.delete(file);
        s.saveTokens(RES, t);
        assertThat(s.tokens(RES, ISS)).contains(t);
    }

    @Test
    void aPathThatIsNotADirectoryFailsTheOpen() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        assertThatThrownBy(() -> FileTokenStore.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a directory");
        assertThatThrownBy(() -> FileTokenStore.open(file.resolve("sub"))).isInstanceOf(IOException.class)
                .hasMessageContaining(file.resolve("sub").toString());
    }

    @Test
    void aWriteFailureLeavesTheFileUnchangedAndNamesIt() throws IOException {
        Path dir = tmp.resolve("c");
        FileTokenStore s = FileTokenStore.open(dir);
        TokenSet t = new TokenSet(ISS, "at-" + SECRET, "Bearer", null, null, null);
        s.saveTokens(RES, t);
        Path file = dir.resolve(FileStore.FILE_NAME);
        byte[] before = Files.readAllBytes(file);
        // the temporary file's name is taken by a non-empty directory: no write can succeed (even as root)
        Path blocker = Files.createDirectory(dir.resolve(FileStore.TEMP_NAME));
        Files.writeString(blocker.resolve("x"), "x");
        assertThatThrownBy(() -> s.saveTokens(RES, new TokenSet(ISS, "other-" + SECRET, "Bearer", null, null,
                null))).isInstanceOf(UncheckedIOException.class).hasMessageContaining(file.toString())
                .satisfies(e -> assertNoSecretInChain(e));
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(s.tokens(RES, ISS)).contains(t);
        Files.delete(blocker.resolve("x"));
        Files.delete(blocker);
        s.saveTokens(RES, new TokenSet(ISS, "other", "Bearer", null, null, null));
        assertThat(s.tokens(RES, ISS).orElseThrow().accessToken()).isEqualTo("other");
    }

    @Test
    void anInterruptedThreadFailsCleanlyAndTheStoreStaysUsable() throws IOException {
        FileTokenStore s = FileTokenStore.open(tmp.resolve("c"));
        TokenSet t = new TokenSet(ISS, "at", "Bearer", null, null, null);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> s.saveTokens(RES, t)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(s.tokens(RES, ISS)).isEmpty();
        s.saveTokens(RES, t);
        assertThat(s.tokens(RES, ISS)).contains(t);
    }

    static void assertNoSecretInChain(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            assertThat(String.valueOf(c.getMessage())).doesNotContain(SECRET);
            assertThat(c.toString()).doesNotContain(SECRET);
            for (Throwable s : c.getSuppressed()) {
                assertNoSecretInChain(s);
            }
        }
    }
}
