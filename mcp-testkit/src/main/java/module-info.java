/** Test support shared by the loom-mcp modules (not published). */
module dev.loommcp.testkit {
    requires transitive dev.loommcp.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;
    exports dev.loommcp.testkit;
}
