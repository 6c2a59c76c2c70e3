package dev.loommcp.cli;

import dev.loommcp.config.ProtocolMode;
import picocli.CommandLine;

/**
 * Parses the {@code --protocol} value with {@link ProtocolMode#parse}: {@code auto}, {@code legacy}, {@code modern}
 * (any case) or one protocol version this client speaks. A bad value is a usage error (exit 2) whose message names
 * what is accepted. Stateless and thread-safe.
 */
final class ProtocolModes implements CommandLine.ITypeConverter<ProtocolMode> {

    /** Creates the converter (picocli does this). */
    ProtocolModes() {
    }

    @Override
    public ProtocolMode convert(String value) {
        try {
            return ProtocolMode.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
