package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordsTest {

    @Test
    void blanksSeparateWordsAndRunsOfThemCountOnce() {
        assertThat(ShellWords.split("node  server.js\t--port 3\n stdio")).containsExactly("node", "server.js",
                "--port", "3", "stdio");
        assertThat(ShellWords.split("   ")).isEmpty();
        assertThat(ShellWords.split("")).isEmpty();
    }

    @Test
    void singleQuotesKeepEverythingLiterally() {
        assertThat(ShellWords.split("sh -c 'echo boom >&2; exit 7'")).containsExactly("sh", "-c",
                "echo boom >&2; exit 7");
        assertThat(ShellWords.split("'a\\b' '$HOME' '\"x\"'")).containsExactly("a\\b", "$HOME", "\"x\"");
    }

    @Test
    void doubleQuotesEscapeOnlyTheFiveSpecialCharacters() {
        assertThat(ShellWords.split("\"a b\" \"q\\\"uote\" \"back\\\\slash\" \"\\$X\" \"\\`\"")).containsExactly(
                "a b", "q\"uote", "back\\slash", "$X", "`");
        // any other backslash is kept
        assertThat(ShellWords.split("\"C:\\dir\\n\"")).containsExactly("C:\\dir\\n");
        // backslash-newline inside double quotes is a line continuation
        assertThat(ShellWords.split("\"ab\\\ncd\"")).containsExactly("abcd");
        // single quotes inside double quotes are literal
        assertThat(ShellWords.split("\"it's\"")).containsExactly("it's");
    }

    @Test
    void unquotedBackslashEscapesTheNextCharacter() {
        assertThat(ShellWords.split("a\\ b c\\'d \\\\ \\$x")).containsExactly("a b", "c'd", "\\", "$x");
        assertThat(ShellWords.split("one \\\n two")).containsExactly("one", "two");
        assertThat(ShellWords.split("ab\\\ncd")).containsExactly("abcd");
    }

    @Test
    void adjacentPartsFormOneWordAndEmptyQuotesMakeAnEmptyWord() {
        assertThat(ShellWords.split("a'b'\"c\"d")).containsExactly("abcd");
        assertThat(ShellWords.split("x '' \"\" y")).containsExactly("x", "", "", "y");
        assertThat(ShellWords.split("--opt='a b'")).containsExactly("--opt=a b");
    }

    @Test
    void jsonArgumentsSurviveQuoting() {
        assertThat(ShellWords.split("tool '{\"message\": \"hi there\"}'"))
                .containsExactly("tool", "{\"message\": \"hi there\"}");
    }

    @Test
    void tildeGlobsAndHashAreOrdinaryCharacters() {
        assertThat(ShellWords.split("~/bin/server *.json a#b #c")).containsExactly("~/bin/server", "*.json", "a#b",
                "#c");
    }

    @Test
    void unterminatedQuotesAndTrailingBackslashAreErrorsWithAPosition() {
        assertThatThrownBy(() -> ShellWords.split("node 'abc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated single quote at position 6");
        assertThatThrownBy(() -> ShellWords.split("x \"abc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated double quote at position 3");
        assertThatThrownBy(() -> ShellWords.split("x \"a\\\"")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated double quote");
        assertThatThrownBy(() -> ShellWords.split("abc\\")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends with a backslash");
    }

    @Test
    void unquotedShellSyntaxIsRefusedInsteadOfPassedOnWithAnotherMeaning() {
        for (String line : List.of("server | tee log", "server > out", "a; b", "a && b", "(a)", "x < in")) {
            assertThatThrownBy(() -> ShellWords.split(line)).as(line).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no shell runs here");
        }
        assertThatThrownBy(() -> ShellWords.split("server $HOME")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unquoted '$' at position 8").hasMessageContaining("--env");
        assertThatThrownBy(() -> ShellWords.split("server `id`")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unquoted '`'");
        // quoted or escaped, they are fine
        assertThat(ShellWords.split("a '|' \"&\" \\; \"$\"")).containsExactly("a", "|", "&", ";", "$");
    }

    @Test
    void quoteIsTheInverseOfSplit() {
        for (String word : List.of("plain", "", "a b", "it's", "$HOME", "x\"y", "back\\slash", "new\nline", "|")) {
            assertThat(ShellWords.split(ShellWords.quote(word))).as(word).containsExactly(word);
        }
        assertThat(ShellWords.quote("/usr/bin/node")).isEqualTo("/usr/bin/node");
    }
}
