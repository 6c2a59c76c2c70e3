package dev.loommcp.skills;

/** Server-supplied text cut for messages: at most 128 characters, control characters as {@code ?}. Stateless. */
final class Printable {

    private Printable() {
    }

    static String of(String s) {
        String cut = s.length() > 128 ? s.substring(0, 128) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
