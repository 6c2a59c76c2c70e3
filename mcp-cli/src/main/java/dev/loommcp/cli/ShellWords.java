package dev.loommcp.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into words the way a POSIX shell's tokenizer does (POSIX.1-2017 XCU 2.2 "Quoting" and 2.3
 * "Token Recognition"), without running a shell and without any expansion. Used for the {@code --stdio} value.
 *
 * <ul>
 *   <li>Unquoted blanks (space, tab, newline) separate words; runs of them count as one.</li>
 *   <li>Single quotes keep everything up to the next single quote literally (a backslash too).</li>
 *   <li>Double quotes keep everything literally except a backslash before {@code $}, {@code `}, {@code "},
 *       {@code \} or a newline, which escapes that character (backslash-newline is removed). Any other backslash
 *       is kept.</li>
 *   <li>An unquoted backslash keeps the next character literally; backslash-newline is removed (line
 *       continuation).</li>
 *   <li>Quoted and unquoted parts next to each other form one word ({@code a'b'"c"} is {@code abc}); {@code ''}
 *       and {@code ""} make an empty word.</li>
 * </ul>
 *
 * <p>Nothing is expanded: a shell would treat unquoted {@code $}, {@code `}, {@code |}, {@code &}, {@code ;},
 * {@code <}, {@code >}, {@code (} and {@code )} specially (expansion, pipes, redirection, lists), and since no
 * shell runs here, those characters are refused when unquoted instead of being passed on with a different meaning.
 * Quote them, or run a shell explicitly: {@code sh -c 'server 2>/tmp/log'}. Tilde, glob characters and {@code #}
 * are ordinary characters.
 *
 * <p>Stateless and thread-safe.
 */
final class ShellWords {

    private static final String OPERATORS = "|&;<>()";

    private ShellWords() {
    }

    /**
     * Splits a command line into words.
     *
     * @param line the command line
     * @return the words, possibly empty when the line holds only blanks
     * @throws IllegalArgumentException when a quote is not closed, the line ends with an unquoted backslash, or an
     *                                  unquoted character needs a shell (the message names it and its position)
     */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            switch (c) {
                case ' ', '\t', '\n' -> {
                    if (inWord) {
                        words.add(word.toString());
                        word.setLength(0);
                        inWord = false;
                    }
                    i++;
                }
                case '\'' -> {
                    int close = line.indexOf('\'', i + 1);
                    if (close < 0) {
                        throw new IllegalArgumentException("unterminated single quote at position " + (i + 1));
                    }
                    word.append(line, i + 1, close);
                    inWord = true;
                    i = close + 1;
                }
                case '"' -> {
                    int start = i;
                    i++;
                    boolean closed = false;
                    while (i < n) {
                        char d = line.charAt(i);
                        if (d == '"') {
                            closed = true;
                            i++;
                            break;
                        }
                        if (d == '\\' && i + 1 < n) {
                            char e = line.charAt(i + 1);
                            if (e == '\n') {
                                i += 2;
                                continue;
                            }
                            if (e == '$' || e == '`' || e == '"' || e == '\\') {
                                word.append(e);
                                i += 2;
                                continue;
                            }
                        }
                        word.append(d);
                        i++;
                    }
                    if (!closed) {
                        throw new IllegalArgumentException("unterminated double quote at position " + (start + 1));
                    }
                    inWord = true;
                }
                case '\\' -> {
                    if (i + 1 >= n) {
                        throw new IllegalArgumentException("the command line ends with a backslash (position "
                                + (i + 1) + ")");
                    }
                    char e = line.charAt(i + 1);
                    if (e != '\n') {
                        word.append(e);
                        inWord = true;
                    }
                    i += 2;
                }
                default -> {
                    if (c == '$' || c == '`') {
                        throw new IllegalArgumentException("unquoted '" + c + "' at position " + (i + 1)
                                + ": no shell runs here, so nothing is expanded; quote it ('" + c
                                + "') or set variables with --env");
                    }
                    if (OPERATORS.indexOf(c) >= 0) {
                        throw new IllegalArgumentException("unquoted '" + c + "' at position " + (i + 1)
                                + ": no shell runs here; quote it, or run a shell explicitly: sh -c '...'");
                    }
                    word.append(c);
                    inWord = true;
                    i++;
                }
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /**
     * Quotes a word so that {@link #split} (and a POSIX shell) reads it back as exactly that one word.
     *
     * @param word the word
     * @return the word, single-quoted when it holds anything but letters, digits and {@code -_./=:,+@%}
     */
    static String quote(String word) {
        if (!word.isEmpty() && word.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || "-_./=:,+@%".indexOf(ch) >= 0)) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
