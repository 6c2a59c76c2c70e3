package dev.loommcp.internal.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * The content codings (RFC 9110 section 8.4.1) of an HTTP answer the client decodes: {@code gzip} (and its alias
 * {@code x-gzip}) and {@code deflate} (the zlib format of RFC 1950, as the RFC says, or the raw deflate data of RFC
 * 1951 that some servers send instead), on the JDK's {@code java.util.zip}. The client never asks for a coding (it
 * sends no {@code Accept-Encoding}), but servers and proxies compress all the same. Any other coding ({@code br},
 * {@code zstd}, {@code compress}, a list of codings) is named by {@link #unsupported}, for the error. Stateless.
 */
public final class ContentCoding {

    /** The longest coding name a message quotes. */
    private static final int MAX_NAME = 40;

    private ContentCoding() {
    }

    /**
     * The coding a {@code Content-Encoding} header value asks to decode.
     *
     * @param header the header's value, or {@code null} when absent
     * @return {@code "gzip"} or {@code "deflate"}; {@code null} for none or {@code identity}; otherwise the value,
     *         trimmed and in lower case, which {@link #unsupported} names
     */
    public static String of(String header) {
        if (header == null) {
            return null;
        }
        String c = header.trim().toLowerCase(Locale.ROOT);
        return switch (c) {
            case "", "identity" -> null;
            case "gzip", "x-gzip" -> "gzip";
            case "deflate" -> "deflate";
            default -> c;
        };
    }

    /**
     * Whether {@link #of} returned a coding this class cannot decode.
     *
     * @param coding what {@link #of} returned, not {@code null}
     * @return whether it is neither gzip nor deflate
     */
    public static boolean isUnsupported(String coding) {
        return !coding.equals("gzip") && !coding.equals("deflate");
    }

    /**
     * The message of an answer in a coding this class cannot decode; it quotes the coding only when it is a short
     * token (the header is the server's text).
     *
     * @param coding what {@link #of} returned
     * @return for example "the server answered with Content-Encoding br, which this client cannot decode (it decodes
     *         gzip and deflate)"
     */
    public static String unsupported(String coding) {
        boolean token = !coding.isEmpty() && coding.length() <= MAX_NAME && coding.chars().allMatch(ch ->
                (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'
                        || ch == ',' || ch == ' ');
        return "the server answered with Content-Encoding " + (token ? coding : "(unreadable)")
                + ", which this client cannot decode (it decodes gzip and deflate)";
    }

    /**
     * Decodes a stream as it is read: reads of the result return what the bytes read so far decode to, reading more
     * of {@code raw} only when the decoder needs it (an SSE stream's events come out as their bytes arrive). Reading
     * the gzip header happens at the first read, not here. A corrupt stream fails the read with
     * {@link java.util.zip.ZipException}; the caller bounds how much it reads.
     *
     * @param raw    the encoded bytes
     * @param coding {@code "gzip"} or {@code "deflate"}
     * @return the decoded bytes
     * @throws IllegalArgumentException for another coding
     */
    public static InputStream decode(InputStream raw, String coding) {
        return switch (coding) {
            case "gzip" -> new Lazy(raw, true);
            case "deflate" -> new Lazy(raw, false);
            default -> throw new IllegalArgumentException("not a decodable coding");
        };
    }

    /** A decoding stream made at the first read, when its header can be read. */
    private static final class Lazy extends InputStream {
        private final InputStream raw;
        private final boolean gzip;
        private InputStream decoded;

        Lazy(InputStream raw, boolean gzip) {
            this.raw = raw;
            this.gzip = gzip;
        }

        private InputStream decoded() throws IOException {
            if (decoded == null) {
                decoded = gzip ? new GZIPInputStream(raw, 8192) : deflate(raw);
            }
            return decoded;
        }

        @Override
        public int read() throws IOException {
            return decoded().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return decoded().read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            return decoded == null ? 0 : decoded.available();
        }

        @Override
        public void close() throws IOException {
            if (decoded != null) {
                decoded.close(); // ends the inflater's native memory
            }
            raw.close();
        }
    }

    /**
     * A deflate stream: the zlib format when its first two bytes are a zlib header (RFC 1950 section 2.2: method 8,
     * a check value that makes the pair a multiple of 31), else raw deflate data.
     */
    private static InputStream deflate(InputStream raw) throws IOException {
        PushbackInputStream in = new PushbackInputStream(raw, 2);
        int b0 = in.read();
        if (b0 < 0) {
            return in; // empty
        }
        int b1 = in.read();
        if (b1 >= 0) {
            in.unread(b1);
        }
        in.unread(b0);
        boolean zlib = b1 >= 0 && (b0 & 0x0f) == 8 && ((b0 << 8) | b1) % 31 == 0;
        return new InflaterInputStream(in, new Inflater(!zlib), 8192) {
            @Override
            public void close() throws IOException {
                inf.end(); // an Inflater passed in is not ended by InflaterInputStream.close
                super.close();
            }
        };
    }
}
