package dev.loommcp.testing;

import java.nio.file.Path;

/** The JDK's JSON thread dump, taken in process (what {@code jcmd <pid> Thread.dump_to_file -format=json} writes). */
public final class ThreadDumps {

    private ThreadDumps() {
    }

    /**
     * {@code HotSpotDiagnosticMXBean.dumpThreads(file, JSON)}, by reflection: the core module (into which the tests
     * are patched) reads neither java.management nor jdk.management.
     *
     * @param file where to write it (must not exist)
     * @throws Exception when the dump fails
     */
    public static void toJson(Path file) throws Exception {
        Class<?> type = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
        Object bean = Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getPlatformMXBean", Class.class).invoke(null, type);
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<Enum> format = (Class<Enum>) Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
        @SuppressWarnings("unchecked")
        Object json = Enum.valueOf(format, "JSON");
        type.getMethod("dumpThreads", String.class, format).invoke(bean, file.toAbsolutePath().toString(), json);
    }
}
