package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 items 20 and 21: JSON a person wrote that does not parse is described by line, column and what in words,
 * never by the parser's internals; text that must be UTF-8 is refused at its first malformed byte instead of being
 * decoded to U+FFFD.
 */
class JsonSyntaxTest {

    /** What the parser's own messages name and a person cannot act on. */
    private static void noInternals(String message) {
        assertThat(message).doesNotContain("Feature").doesNotContain("`").doesNotContain("JsonToken")
                .doesNotContain("java.").doesNotContain("Source:").doesNotContain("REDACTED")
                .doesNotContain("code 1").doesNotContain("Jackson").doesNotContain("#UNKNOWN");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"a":1,}                     | line 1, column 8: expected a name in double quotes, found '}' (a ',' before
            {"a":1} x                    | line 1, column 9: 'x' is not a JSON value
            {"a":1}{}                    | line 1, column 8: there is more text after the JSON value
            {"a":1,"a":2}                | line 1, column 11: the name "a" is given twice in one object
            {a:1}                        | line 1, column 2: expected a name in double quotes, found 'a'
            {"a":tru}                    | line 1, column 6: 'tru' is not a JSON value
            {"a":1                       | line 1, column 7: the text ends inside an object (a closing '}' is missing)
            [1,2                         | line 1, column 5: the text ends inside an array (a closing ']' is missing)
            ` `                          | there is no JSON value (the text is empty)
            {"a":01}                     | line 1, column 7: not a valid number (leading zeroes not allowed)
            {'a':1}                      | line 1, column 2: expected a name in double quotes, found a single quote
            {"a":"\\q"}                  | line 1, column 8: an unknown escape '\\q' in a string
            // c                         | line 1, column 1: comments are not allowed in JSON
            {"a":NaN}                    | line 1, column 9: 'NaN' is not a JSON value
            {"a" 1}                      | line 1, column 6: expected ':' after the name, found '1'
            {"a":1 "b":2}                | line 1, column 8: expected ',' or '}' after a value, found '"'
            [1 2]                        | line 1, column 4: expected ',' or ']' after a value, found '2'
            [1,]                         | line 1, column 4: unexpected ']' (a ',' before a closing ']' is not allowed)
            {"a":"x                      | line 1, column 8: the text ends inside a string
            """)
    void aSyntaxErrorSaysWhereAndWhatInWords(String text, String expected) {
        String message = catchThrowableOfType(IllegalArgumentException.class, () -> Json.readExact(text))
                .getMessage();
        assertThat(message).startsWith("not valid JSON: " + expected);
        noInternals(message);
    }

    @Test
    void linesAndColumnsCountFromOneAcrossLines() {
        String message = catchThrowableOfType(IllegalArgumentException.class,
                () -> Json.readExact("{\n  \"a\": 1\n  \"b\": 2\n}")).getMessage();
        assertThat(message).isEqualTo("not valid JSON: line 3, column 3: expected ',' or '}' after a value, found '\"'");
        String control = catchThrowableOfType(IllegalArgumentException.class,
                () -> Json.read("{\"a\":\"x\ny\"}")).getMessage();
        assertThat(control).startsWith("not valid JSON: line 1, column 8: a control character (code 10) inside a "
                + "string");
        noInternals(control.replace("(code 10)", ""));
    }

    @Test
    void invalidUtf8IsRefusedAtItsFirstMalformedByte() {
        byte[] bytes = "{\"m\":\"é\n  xy".getBytes(StandardCharsets.UTF_8);
        byte[] bad = java.util.Arrays.copyOf(bytes, bytes.length + 3);
        bad[bytes.length] = (byte) 0xff;
        bad[bytes.length + 1] = '"';
        bad[bytes.length + 2] = '}';
        assertThatThrownBy(() -> JsonSyntax.utf8(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not valid UTF-8: byte 0xff at line 2, column 5 (byte offset " + bytes.length
                        + "); JSON text must be UTF-8");
        // a truncated sequence at the end, a lone continuation byte, an overlong encoding, a surrogate
        for (byte[] b : new byte[][] {{'"', (byte) 0xc3}, {'"', (byte) 0x80, '"'}, {(byte) 0xc0, (byte) 0xaf},
                {(byte) 0xed, (byte) 0xa0, (byte) 0x80}}) {
            assertThatThrownBy(() -> JsonSyntax.utf8(b)).hasMessageStartingWith("not valid UTF-8: byte 0x");
        }
        assertThat(JsonSyntax.utf8("{\"m\":\"é 日本 \uD83D\uDE00\"}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("{\"m\":\"é 日本 \uD83D\uDE00\"}");
        assertThat(JsonSyntax.utf8(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'})).as("BOM skipped")
                .isEqualTo("{}");
    }
}
