package dev.loommcp.cli;

import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.BlobResourceContents;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ImageContent;
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

    private Render() {
    }

    // ------------------------------------------------------------------------------------------------ tables

    /**
     * Prints rows as a table with a header: every column but the last is padded to its widest cell, and the last
     * column is cut (with an ellipsis) so that the line fits {@code width}, but never below 20 characters; when the
     * width is unknown the last column is cut to {@value #DEFAULT_LAST_COLUMN} characters.
     *
     * @param out    where to print
     * @param header the column titles
     * @param rows   the rows, each with as many cells as the header
     * @param width  the line width, or 0 when unknown
     */
    static void table(PrintWriter out, List<String> header, List<List<String>> rows, int width) {
        int cols = header.size();
        int[] w = new int[cols];
        for (int c = 0; c < cols; c++) {
            w[c] = header.get(c).length();
            for (List<String> row : rows) {
                w[c] = Math.max(w[c], oneLine(row.get(c)).length());
            }
        }
        int used = 0;
        for (int c = 0; c < cols - 1; c++) {
            used += w[c] + 2;
        }
        int last = width > 0 ? Math.max(20, width - used) : DEFAULT_LAST_COLUMN;
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                String cell = oneLine(row.get(c));
                if (c == cols - 1) {
                    line.append(truncate(cell, last));
                } else {
                    line.append(cell).append(" ".repeat(w[c] - cell.length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
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
     * Cuts a text to at most {@code max} characters, ending it with {@code "..."} when cut.
     *
     * @param s   the text
     * @param max the most characters, at least 4
     * @return the text, cut if needed
     */
    static String truncate(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        return s.substring(0, Math.max(0, max - 3)).stripTrailing() + "...";
    }

    // ------------------------------------------------------------------------------------------------ info

    /**
     * Prints the server's identity, protocol version, capabilities and instructions.
     *
     * @param out    where to print
     * @param result the {@code initialize} result
     */
    static void info(PrintWriter out, InitializeResult result) {
        var s = result.serverInfo();
        String who = s.name() + " " + s.version();
        out.println("Server:        " + (s.title() != null ? s.title() + " (" + who + ")" : who));
        if (s.description() != null) {
            out.println("Description:   " + oneLine(s.description()));
        }
        if (s.websiteUrl() != null) {
            out.println("Website:       " + s.websiteUrl());
        }
        out.println("Protocol:      " + result.protocolVersion());
        out.println("Capabilities:  " + capabilities(result.capabilities()));
        if (result.instructions() != null && !result.instructions().isBlank()) {
            out.println("Instructions:");
            for (String line : result.instructions().strip().split("\\R", -1)) {
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
            out.println(Json.writePretty(result.structuredContent()));
        }
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
                StringBuilder sb = new StringBuilder("[resource link: ").append(l.uri());
                List<String> details = new ArrayList<>();
                if (l.name() != null && !l.name().equals(l.uri())) {
                    details.add(l.title() != null ? l.title() : l.name());
                }
                if (l.mimeType() != null) {
                    details.add(l.mimeType());
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
                    out.println("--- " + t.uri() + (t.mimeType() != null ? " (" + t.mimeType() + ")" : ""));
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
        String head = c.uri() + " (" + orUnknown(c.mimeType()) + ")";
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
        return s == null ? "unknown type" : s;
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
}
