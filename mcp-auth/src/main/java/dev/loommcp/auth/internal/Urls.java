package dev.loommcp.auth.internal;

import java.net.URI;

/** URL rules: canonical resource URIs, well-known URL orders, metadata document URLs. (Skeleton: to be built.) */
public final class Urls {

    private Urls() {
    }

    public static URI checkMetadataDocumentUrl(URI url) {
        return java.util.Objects.requireNonNull(url, "url");
    }
}
