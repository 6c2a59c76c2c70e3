package dev.loommcp.auth;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/** For tests that start a child JVM on this test's classes. */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * Everything this JVM has, module path and class path, as a class path.
     *
     * @return the class path
     */
    public static String classPath() {
        List<String> cp = new ArrayList<>();
        for (String prop : List.of("jdk.module.path", "java.class.path")) {
            String v = System.getProperty(prop);
            if (v != null && !v.isBlank()) {
                cp.add(v);
            }
        }
        return String.join(File.pathSeparator, cp);
    }
}
