package dev.loommcp.internal.session.era;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.DiscoverResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading {@code server/discover} results that do not validate, for a connection forced to the modern era. */
class DiscoveryTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(String json) {
        return (Map<String, Object>) Json.read(json);
    }

    /** One malformed capability (say "prompts": "x") no longer hides the others: only it is dropped. */
    @Test
    void aMalformedCapabilityIsDroppedAndTheOthersKept() {
        DiscoverResult d = Discovery.lenient(read("{\"capabilities\":{\"tools\":{\"listChanged\":true},\"prompts\":\"x\","
                + "\"resources\":{\"subscribe\":\"yes\"},\"logging\":{}},\"_meta\":{\"io.modelcontextprotocol/"
                + "serverInfo\":{\"name\":\"m\",\"version\":\"1\"}}}"), "2026-07-28");
        assertThat(d.supportedVersions()).isEqualTo(List.of("2026-07-28"));
        assertThat(d.capabilities().tools()).isNotNull();
        assertThat(d.capabilities().tools().listChanged()).isTrue();
        assertThat(d.capabilities().logging()).isEqualTo(Map.of());
        assertThat(d.capabilities().prompts()).isNull();
        assertThat(d.capabilities().resources()).isNull();
        assertThat(d.serverInfo().name()).isEqualTo("m");
    }

    @Test
    void validOrMissingCapabilitiesReadAsBefore() {
        assertThat(Discovery.lenient(read("{\"capabilities\":{\"tools\":{}}}"), "2026-07-28").capabilities().tools())
                .isNotNull();
        assertThat(Discovery.lenient(read("{\"capabilities\":[]}"), "2026-07-28").capabilities().tools()).isNull();
        assertThat(Discovery.lenient(read("{}"), "2026-07-28").capabilities().tools()).isNull();
    }
}
