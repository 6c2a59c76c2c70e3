package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MCP scope selection, step-up union and offline_access rules. */
class ScopesTest {

    @ParameterizedTest(name = "challenge={0} prm={1} fallback={2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            mcp:basic            | mcp:a mcp:b | fb      | mcp:basic
            'mcp:basic  mcp:x '  | mcp:a       | -       | mcp:basic mcp:x
            -                    | mcp:basic mcp:read mcp:write | fb | mcp:basic mcp:read mcp:write
            '  '                 | mcp:a       | -       | mcp:a
            -                    | -           | fb      | fb
            -                    | -           | -       | -
            -                    | -           | '  '    | -
            """)
    void selection(String challenge, String prm, String fallback, String expected) {
        List<String> prmScopes = prm == null ? List.of() : Arrays.asList(prm.split(" "));
        assertThat(Scopes.select(challenge, prmScopes, fallback)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} + {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            mcp:basic           | mcp:write           | mcp:basic mcp:write
            mcp:basic mcp:write | mcp:write           | mcp:basic mcp:write
            -                   | mcp:write           | mcp:write
            mcp:basic           | -                   | mcp:basic
            -                   | -                   | -
            a b                 | c a d               | a b c d
            """)
    void union(String held, String asked, String expected) {
        assertThat(Scopes.union(held, asked)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} as={1} wanted={2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            mcp:basic | mcp:basic offline_access | true  | mcp:basic offline_access
            mcp:basic | mcp:basic offline_access | false | mcp:basic
            mcp:basic | mcp:basic mcp:read       | true  | mcp:basic
            mcp:basic | -                        | true  | mcp:basic
            -         | offline_access           | true  | offline_access
            -         | -                        | true  | -
            mcp:basic offline_access | offline_access | true | mcp:basic offline_access
            """)
    void offlineAccessOnlyWhenOffered(String scope, String asScopes, boolean wanted, String expected) {
        List<String> supported = asScopes == null ? List.of() : Arrays.asList(asScopes.split(" "));
        assertThat(Scopes.withOfflineAccess(scope, supported, wanted)).isEqualTo(expected);
    }
}
