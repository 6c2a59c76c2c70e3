package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.RequestId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdsTest {

    @Test
    void onlyIntegersThatFitALongAreExact() {
        assertThat(Ids.exactInteger(7)).isEqualTo(7L);
        assertThat(Ids.exactInteger(7L)).isEqualTo(7L);
        assertThat(Ids.exactInteger(7.0)).isNull();
        assertThat(Ids.exactInteger(2.9)).isNull();
        assertThat(Ids.exactInteger(BigInteger.TWO.pow(64).add(BigInteger.TWO))).isNull();
        assertThat(Ids.exactInteger(new BigDecimal("7"))).isNull();
        assertThat(Ids.exactInteger("7")).isNull();
        assertThat(Ids.exactInteger(null)).isNull();
    }

    @Test
    void exactIdsAreStringsOrLongIntegers() {
        assertThat(Ids.exactId("7")).isEqualTo(RequestId.of("7"));
        assertThat(Ids.exactId(7)).isEqualTo(RequestId.of(7));
        assertThat(Ids.exactId(2.9)).isNull();
        assertThat(Ids.exactId(BigInteger.TWO.pow(64))).isNull();
        assertThat(Ids.exactId(true)).isNull();
        assertThat(Ids.exactId(List.of())).isNull();
        assertThat(Ids.exactId(Map.of())).isNull();
    }

    @Test
    void looseIdsStandForTheIntegerTheyEqualExactly() {
        assertThat(Ids.looseInteger(RequestId.of("7"))).isEqualTo(7L);
        assertThat(Ids.looseInteger(RequestId.of("7.0"))).isEqualTo(7L);
        assertThat(Ids.looseInteger(RequestId.of("7e0"))).isEqualTo(7L);
        assertThat(Ids.looseInteger(RequestId.of("1E+3"))).isEqualTo(1000L);
        assertThat(Ids.looseInteger(RequestId.of("-3"))).isEqualTo(-3L);
        for (String no : List.of("7.5", "7.0000000000000001", "abc", "", " 7", "07", "+7", "0x7", "7.", "1e999999999",
                "18446744073709551618", "NaN", "Infinity")) {
            assertThat(Ids.looseInteger(RequestId.of(no))).as(no).isNull();
        }
        assertThat(Ids.looseInteger(RequestId.of(7))).isNull();
    }

    @Test
    void aResponseIdLooselyMatchesByTheSameRule() {
        for (String id : List.of("7", "7.0", "7e0", "7.5", "07", " 7", "abc", "1" + "0".repeat(70))) {
            Long loose = Ids.looseInteger(RequestId.of(id));
            assertThat(RequestId.of(id).looselyMatches(RequestId.of(7))).as(id).isEqualTo(loose != null && loose == 7);
        }
        assertThat(RequestId.of(7).looselyMatches(RequestId.of(7))).isTrue();
        assertThat(RequestId.of("7").looselyMatches(RequestId.of("7.0"))).isFalse();
    }

    @Test
    void sizesAreEstimatedAsJsonText() {
        assertThat(JsonSize.of("abc")).isEqualTo(5);
        assertThat(JsonSize.of(Map.of("k", List.of(1, "ab", true)))).isEqualTo(2 + (1 + 4) + (2 + 9 + 5 + 6));
        assertThat(JsonSize.ofMessage("m", null)).isEqualTo(45);
        assertThat(JsonSize.of(Map.of("data", "x".repeat(200_000)))).isBetween(200_000L, 200_020L);
    }
}
