package dev.loommcp.hosts;

import dev.loommcp.internal.json.JsonSyntax;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the {@code envFile} of an {@code mcpServers} entry (VS Code, Cursor): {@code NAME=VALUE} lines, {@code #}
 * comments and blank lines, an optional {@code export } before the name, a value optionally in double quotes (with
 * {@code \n}, {@code \"} and {@code \\} escapes) or single quotes (taken as is); an unquoted value is trimmed and
 * ends at {@code " #"}. Values are never put into messages.
 */
final class EnvFile {

    private EnvFile() {
    }

    /**
     * Reads the file.
     *
     * @param file  the file
     * @param shown the path as the mcpServers file wrote it (references unresolved), for messages
     * @param where what starts every message (the file, the server and the field)
     * @return the variables, in the file's order
     * @throws IllegalArgumentException if it does not exist, is not UTF-8 or a line is not {@code NAME=VALUE}
     * @throws UncheckedIOException     if it cannot be read for another reason
     */
    static Map<String, String> read(Path file, String shown, String where) {
        String text;
        try {
            text = JsonSyntax.utf8(McpServersFile.readAtMost(file));
        } catch (NoSuchFileException e) {
            // the text as written: a resolved value is never shown
            throw new IllegalArgumentException(where + "there is no file '" + shown + "'");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + e.getMessage().replace("; JSON text must be UTF-8", ""), e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring(7).strip();
            }
            int eq = line.indexOf('=');
            String name = eq < 0 ? "" : line.substring(0, eq).strip();
            if (name.isEmpty() || !name.chars().allMatch(c -> c == '_' || c == '.' || c == '-'
                    || Character.isLetterOrDigit(c))) {
                // the line is not shown: it may be a value
                throw new IllegalArgumentException(where + "line " + (n + 1) + ": expected NAME=VALUE");
            }
            out.put(name, value(line.substring(eq + 1).strip(), where + "line " + (n + 1)));
        }
        return out;
    }

    private static String value(String raw, String at) {
        if (raw.startsWith("'")) {
            int end = raw.indexOf('\'', 1);
            if (end < 0) {
                throw new IllegalArgumentException(at + ": a value in single quotes has no closing quote");
            }
            return raw.substring(1, end);
        }
        if (raw.startsWith("\"")) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\' && i + 1 < raw.length()) {
                    char next = raw.charAt(++i);
                    sb.append(next == 'n' ? '\n' : next == 'r' ? '\r' : next == 't' ? '\t' : next);
                } else {
                    sb.append(c);
                }
            }
            throw new IllegalArgumentException(at + ": a value in double quotes has no closing quote");
        }
        int comment = raw.indexOf(" #");
        return (comment < 0 ? raw : raw.substring(0, comment)).strip();
    }
}
