package dev.loommcp.it;

/** The modern-era contract against the modern-only fixture pinned to 2026-07-28, over HTTP on a unix socket. */
class UnixModernOnlyPinnedTest extends HttpModernOnlyPinnedTest {

    @Override
    protected boolean unixSocket() {
        return true;
    }
}
