package dev.loommcp.cli;

import dev.loommcp.config.Era;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.BlobResourceContents;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.PromptMessage;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.ResourceContents;
import dev.loommcp.schema.ResourceLink;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.UnknownContent;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Human-readable output of the CLI's commands: tables, tool results block by block, prompts and resource contents.
 * Stateless and thread-safe; every method writes to the writer it is given, which the command makes an escaping one
 * ({@link TerminalText#writer}) so that server-supplied text cannot send control sequences to the terminal.
 */
final class Render {

    /** The most characters of a table's last column when the terminal's width is unknown. */
    static final int DEFAULT_LAST_COLUMN = 100;
    /** The most columns of every other table column when the terminal's width is unknown. */
    static final int DEFAULT_COLUMN = 60;
    /** Strings in {@code structuredContent} longer than this many characters are summarized in human output. */
    static final int LONG_STRING = 200;
    /** How many characters of a summarized string are shown. */
    static final int LONG_STRING_SHOWN = 60;

    private Render() {
    }

    // ------------------------------------------------------------------------------------------------ tables

    /**
     * Returns a tool's title for display: its {@code title}, else its annotations' {@code title}, else empty.
     *
     * @param t the tool
     * @return the title, never {@code null}
     */
    static String title(dev.loommcp.schema.Tool t) {
        return t.title() != null ? t.title()
                : t.annotations() != null && t.annotations().title() != null ? t.annotations().title() : "";
    }

    /**
     * Prints rows as a table with a header. Widths are terminal columns ({@link TerminalText#displayWidth}: a CJK
     * character takes two). Every column but the last is padded to its widest cell, cut (with an ellipsis) to at most
     * {@link #columnLimit} columns; the last column is cut so that the line fits {@code width}, but never below 20
     * columns; when the width is unknown the last column is cut to {@value #DEFAULT_LAST_COLUMN} columns.
     *
     * @param out    where to print
     * @param header the column titles
     * @param rows   the rows, each with as many cells as the header
     * @param width  the line width, or 0 when unknown
     */
    static void table(PrintWriter out, List<String> header, List<List<String>> rows, int width) {
        int cols = header.size();
        int limit = columnLimit(width, cols);
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        List<List<String>> cells = new ArrayList<>();
        int[] w = new int[cols];
        for (List<String> row : all) {
            List<String> cut = new ArrayList<>();
            for (int c = 0; c < cols; c++) {
                String cell = oneLine(row.get(c));
                if (c < cols - 1) {
                    cell = TerminalText.fitWidth(cell, limit);
                    w[c] = Math.max(w[c], TerminalText.displayWidth(cell));
                }
                cut.add(cell);
            }
            cells.add(cut);
        }
        int used = 0;
        for (int c = 0; c < cols - 1; c++) {
            used += w[c] + 2;
        }
        int last = width > 0 ? Math.max(20, width - used) : DEFAULT_LAST_COLUMN;
        for (List<String> row : cells) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                String cell = row.get(c);
                if (c == cols - 1) {
                    line.append(TerminalText.fitWidth(cell, last));
                } else {
                    line.append(cell).append(" ".repeat(w[c] - TerminalText.displayWidth(cell) + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /**
     * The most columns of a table column other than the last (a tool's name, a resource's URI): 60 when the width
     * is unknown, otherwise an equal share of what is left after 20 columns for the last one, at least 20.
     *
     * @param width the line width, or 0 when unknown
     * @param cols  the number of columns of the table
     * @return the limit in terminal columns
     */
    static int columnLimit(int width, int cols) {
        if (width <= 0 || cols < 2) {
            return DEFAULT_COLUMN;
        }
        return Math.max(20, (width - 20) / (cols - 1) - 2);
    }

    /**
     * Collapses every run of whitespace (newlines included) into one space and shows other control characters as
     * escapes ({@link TerminalText#escape}), so that the result has the width it will take on the terminal.
     *
     * @param s the text, or {@code null}
     * @return the text on one line, empty for {@code null}
     */
    static String oneLine(String s) {
        return s == null ? "" : TerminalText.escape(s.strip().replaceAll("\\s+", " "));
    }

    /**
     * Cuts a text to at most {@code max} terminal columns, ending it with {@code "..."} when cut
     * ({@link TerminalText#fitWidth}).
     *
     * @param s   the text
     * @param max the most characters, at least 4
     * @return the text, cut if needed
     */
    static String truncate(String s, int max) {
        return TerminalText.fitWidth(s, max);
    }

    // ------------------------------------------------------------------------------------------------ info

    /**
     * Prints the {@code info} command's lines for a legacy-era connection: the {@code initialize} result.
     *
     * @param out    where to print
     * @param result the {@code initialize} result
     */
    static void info(PrintWriter out, InitializeResult result) {
        info(out, result.serverInfo(), Era.LEGACY, result.protocolVersion(), null, result.capabilities(),
                result.instructions());
    }

    /**
     * Prints the {@code info} command's lines: server, era, protocol version, (modern era) the versions the server
     * supports, capabilities and instructions.
     *
     * @param out               where to print
     * @param server            the server's name and version, or {@code null} when it sent none
     * @param era               the connection's era
     * @param protocolVersion   the protocol version spoken, or {@code null}
     * @param supportedVersions the modern versions the server supports ({@code server/discover}), or {@code null}
     * @param capabilities      the server's capabilities
     * @param instructions      the server's instructions, or {@code null}
     */
    static void info(PrintWriter out, Implementation server, Era era, String protocolVersion,
                     List<String> supportedVersions, ServerCapabilities capabilities, String instructions) {
        if (server != null) {
            String who = oneLine(server.name()) + " " + oneLine(server.version());
            out.println("Server:        " + (server.title() != null ? oneLine(server.title()) + " (" + who + ")"
                    : who));
            if (server.description() != null) {
                out.println("Description:   " + oneLine(server.description()));
            }
            if (server.websiteUrl() != null) {
                out.println("Website:       " + oneLine(server.websiteUrl()));
            }
        } else {
            out.println("Server:        (the server did not say)");
        }
        out.println("Era:           " + (era == Era.MODERN ? "modern (server/discover, no session)"
                : "legacy (initialize)"));
        out.println("Protocol:      " + (protocolVersion == null ? "(unknown)" : oneLine(protocolVersion)));
        if (supportedVersions != null) {
            out.println("Supported:     " + (supportedVersions.isEmpty() ? "(none listed)"
                    : String.join(", ", supportedVersions.stream().map(Render::oneLine).toList())));
        }
        out.println("Capabilities:  " + capabilities(capabilities == null ? ServerCapabilities.of() : capabilities));
        if (instructions != null && !instructions.isBlank()) {
            out.println("Instructions:");
            for (String line : instructions.strip().split("\\R", -1)) {
                out.println(("  " + line).stripTrailing());
            }
        }
    }

    /**
     * Describes server capabilities in one line, for example {@code tools (listChanged), logging}.
     *
     * @param c the capabilities
     * @return the description, {@code (none)} when empty
     */
    static String capabilities(ServerCapabilities c) {
        List<String> parts = new ArrayList<>();
        if (c.tools() != null) {
            parts.add("tools" + (c.tools().sendsListChanged() ? " (listChanged)" : ""));
        }
        if (c.resources() != null) {
            List<String> f = new ArrayList<>();
            if (Boolean.TRUE.equals(c.resources().subscribe())) {
                f.add("subscribe");
            }
            if (Boolean.TRUE.equals(c.resources().listChanged())) {
                f.add("listChanged");
            }
            parts.add("resources" + (f.isEmpty() ? "" : " (" + String.join(", ", f) + ")"));
        }
        if (c.prompts() != null) {
            parts.add("prompts" + (c.prompts().sendsListChanged() ? " (listChanged)" : ""));
        }
        if (c.logging() != null) {
            parts.add("logging");
        }
        if (c.completions() != null) {
            parts.add("completions");
        }
        if (c.tasks() != null) {
            parts.add("tasks");
        }
        if (c.experimental() != null && !c.experimental().isEmpty()) {
            parts.add("experimental (" + String.join(", ", c.experimental().keySet()) + ")");
        }
        if (c.extensions() != null && !c.extensions().isEmpty()) {
            parts.add("extensions (" + String.join(", ", c.extensions().keySet()) + ")");
        }
        return parts.isEmpty() ? "(none)" : String.join(", ", parts);
    }

    // ------------------------------------------------------------------------------------------------ content

    /**
     * Prints a tool result: each content block, then {@code structuredContent} pretty-printed.
     *
     * @param out    where to print
     * @param result the result
     */
    static void toolResult(PrintWriter out, CallToolResult result) {
        for (ContentBlock block : orEmpty(result.content())) {
            block(out, block);
        }
        if (result.structuredContent() != null) {
            out.println("structuredContent:");
            boolean[] cut = new boolean[1];
            out.println(Json.writePretty(summarizeStrings(result.structuredContent(), cut)));
            if (cut[0]) {
                out.println("(strings longer than " + LONG_STRING + " characters are cut; --json prints them whole)");
            }
        }
    }

    /**
     * Returns a copy of a JSON value (maps, lists, strings, numbers, booleans, {@code null}) in which every string
     * longer than {@value #LONG_STRING} characters is replaced by its first {@value #LONG_STRING_SHOWN} characters
     * and a count, {@code "iVBORw0KGgo... [4,194,304 characters]"}, the way content blocks are summarized (a
     * base64 file is not printed whole). Object keys are kept as they are.
     *
     * @param value the value
     * @param cut   set to {@code true} when a string was cut
     * @return the summarized copy
     */
    static Object summarizeStrings(Object value, boolean[] cut) {
        return switch (value) {
            case String s when s.length() > LONG_STRING -> {
                cut[0] = true;
                int keep = Character.isHighSurrogate(s.charAt(LONG_STRING_SHOWN - 1)) ? LONG_STRING_SHOWN - 1
                        : LONG_STRING_SHOWN;
                yield s.substring(0, keep) + String.format(java.util.Locale.ROOT, "... [%,d characters]",
                        s.length());
            }
            case Map<?, ?> m -> {
                Map<Object, Object> copy = new java.util.LinkedHashMap<>();
                m.forEach((k, v) -> copy.put(k, summarizeStrings(v, cut)));
                yield copy;
            }
            case List<?> l -> {
                List<Object> copy = new ArrayList<>(l.size());
                l.forEach(v -> copy.add(summarizeStrings(v, cut)));
                yield copy;
            }
            case null, default -> value;
        };
    }

    /**
     * Prints one content block: text as text, everything else as a one-line summary in brackets.
     *
     * @param out   where to print
     * @param block the block
     */
    static void block(PrintWriter out, ContentBlock block) {
        switch (block) {
            case TextContent t -> out.println(t.text());
            case ImageContent i -> out.println("[image: " + orUnknown(i.mimeType()) + ", " + decodedSize(i.data()) + "]");
            case AudioContent a -> out.println("[audio: " + orUnknown(a.mimeType()) + ", " + decodedSize(a.data()) + "]");
            case ResourceLink l -> {
                StringBuilder sb = new StringBuilder("[resource link: ").append(oneLine(l.uri()));
                List<String> details = new ArrayList<>();
                if (l.name() != null && !l.name().equals(l.uri())) {
                    details.add(oneLine(l.title() != null ? l.title() : l.name()));
                }
                if (l.mimeType() != null) {
                    details.add(oneLine(l.mimeType()));
                }
                if (l.size() != null) {
                    details.add(bytes(l.size()));
                }
                if (!details.isEmpty()) {
                    sb.append(" (").append(String.join(", ", details)).append(')');
                }
                if (l.description() != null) {
                    sb.append(": ").append(truncate(oneLine(l.description()), 120));
                }
                out.println(sb.append(']'));
            }
            case EmbeddedResource r -> out.println("[embedded resource: " + contentsSummary(r.resource()) + "]");
            case UnknownContent u -> out.println("[content of unknown type '" + orUnknown(u.type()) + "': "
                    + truncate(Json.write(u.raw()), 200) + "]");
        }
    }

    /**
     * Prints the contents of a {@code resources/read} result: text as text (with a header line when there is more
     * than one item), binary contents summarized.
     *
     * @param out    where to print
     * @param result the result
     */
    static void resourceContents(PrintWriter out, ReadResourceResult result) {
        List<ResourceContents> contents = orEmpty(result.contents());
        boolean many = contents.size() > 1;
        for (ResourceContents c : contents) {
            if (c instanceof TextResourceContents t) {
                if (many) {
                    out.println("--- " + oneLine(t.uri()) + (t.mimeType() != null ? " (" + oneLine(t.mimeType()) + ")"
                            : ""));
                }
                out.println(t.text());
            } else {
                out.println("[" + contentsSummary(c) + "]");
            }
        }
    }

    /**
     * Prints a rendered prompt: its description, then each message's role and content.
     *
     * @param out    where to print
     * @param result the result
     */
    static void prompt(PrintWriter out, GetPromptResult result) {
        if (result.description() != null && !result.description().isBlank()) {
            out.println(result.description().strip());
            out.println();
        }
        for (PromptMessage m : orEmpty(result.messages())) {
            out.println("[" + m.role() + "]");
            if (m.content() != null) {
                block(out, m.content());
            }
        }
    }

    /**
     * Summarizes resource contents: URI, MIME type and the size of the text (characters) or blob (decoded bytes).
     *
     * @param c the contents
     * @return the summary
     */
    static String contentsSummary(ResourceContents c) {
        String head = oneLine(c.uri()) + " (" + orUnknown(c.mimeType()) + ")";
        return switch (c) {
            case TextResourceContents t -> head + ", " + t.text().length() + " characters of text";
            case BlobResourceContents b -> head + ", " + decodedSize(b.blob());
        };
    }

    /**
     * Returns the decoded size of base64 data, for example {@code "1,234 bytes"}.
     *
     * @param base64 the data, or {@code null}
     * @return the size, or a note that the data is missing or not valid base64
     */
    static String decodedSize(String base64) {
        if (base64 == null) {
            return "no data";
        }
        try {
            return bytes(Base64.getDecoder().decode(base64.replaceAll("\\s", "")).length);
        } catch (IllegalArgumentException e) {
            return "data that is not valid base64 (" + base64.length() + " characters)";
        }
    }

    private static String bytes(long n) {
        return String.format(java.util.Locale.ROOT, "%,d byte%s", n, n == 1 ? "" : "s");
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static String orUnknown(String s) {
        return s == null ? "unknown type" : oneLine(s);
    }

    /**
     * Returns a prompt's or tool's argument list for a table cell: names, required ones marked with {@code *}.
     *
     * @param arguments name to required flag, in order
     * @return the cell text
     */
    static String argumentList(Map<String, Boolean> arguments) {
        List<String> parts = new ArrayList<>();
        arguments.forEach((name, required) -> parts.add(Boolean.TRUE.equals(required) ? name + "*" : name));
        return String.join(" ", parts);
    }

    /**
     * Returns the text, or the empty string for {@code null}.
     *
     * @param s a text, or {@code null}
     * @return {@code s}, never {@code null}
     */
    static String nz(String s) {
        return s == null ? "" : s;
    }
}
