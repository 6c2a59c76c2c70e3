package dev.loommcp.it;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes the public API of one published module as sorted text: every public type of its unqualified exports, with
 * kind, modifiers, supertypes and permitted subtypes, and its public and protected constructors, methods (generic
 * signatures with throws clauses), fields, record components and enum constants. Two dumps are equal exactly when
 * the API a user compiles against is the same (Javadoc and bodies aside).
 */
final class ApiDump {

    private ApiDump() {
    }

    /**
     * Dumps the module that holds a class.
     *
     * @param anyClass a class of the module (its code source is the module's classes directory or jar)
     * @return the module name and the dump lines, sorted
     * @throws IOException if the classes cannot be read
     */
    static Dump of(Class<?> anyClass) throws IOException {
        Path location;
        try {
            location = Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isDirectory(location)) {
            return read(location, anyClass.getClassLoader());
        }
        try (FileSystem jar = FileSystems.newFileSystem(location)) {
            return read(jar.getPath("/"), anyClass.getClassLoader());
        }
    }

    /** A module's name and API lines. */
    record Dump(String module, List<String> lines) {
    }

    private static Dump read(Path root, ClassLoader loader) throws IOException {
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(root.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        Set<String> exported = descriptor.exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        List<String> classNames;
        try (Stream<Path> files = Files.walk(root)) {
            classNames = files.map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class")
                            && !n.endsWith("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .filter(n -> n.lastIndexOf('.') > 0 && exported.contains(n.substring(0, n.lastIndexOf('.'))))
                    .toList();
        }
        TreeSet<String> lines = new TreeSet<>();
        for (String name : classNames) {
            Class<?> c;
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                throw new IOException("cannot load " + name, e);
            }
            if (isApi(c)) {
                describe(c, lines);
            }
        }
        return new Dump(descriptor.name(), new ArrayList<>(lines));
    }

    private static boolean isApi(Class<?> c) {
        if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) {
            return false;
        }
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            int m = k.getModifiers();
            boolean visible = Modifier.isPublic(m) || (k != c && Modifier.isProtected(m))
                    || (k == c && k.getDeclaringClass() != null && Modifier.isProtected(m));
            if (!visible) {
                return false;
            }
        }
        return true;
    }

    private static void describe(Class<?> c, TreeSet<String> out) {
        String name = c.getName();
        StringBuilder head = new StringBuilder(name).append(" : ").append(kind(c));
        String mods = Modifier.toString(c.getModifiers() & ~Modifier.INTERFACE & ~(c.isInterface()
                ? Modifier.ABSTRACT : 0) & ~(c.isEnum() || c.isRecord() ? Modifier.FINAL | Modifier.STATIC : 0));
        if (c.isSealed()) {
            mods = (mods + " sealed").trim();
        }
        if (!mods.isEmpty()) {
            head.append(' ').append(mods);
        }
        if (c.getTypeParameters().length > 0) {
            head.append(' ').append(Arrays.stream(c.getTypeParameters()).map(t -> t.getName())
                    .collect(Collectors.joining(",", "<", ">")));
        }
        if (c.getGenericSuperclass() != null && !c.isEnum() && !c.isRecord()
                && c.getSuperclass() != Object.class) {
            head.append(" extends ").append(c.getGenericSuperclass().getTypeName());
        }
        if (c.getGenericInterfaces().length > 0) {
            head.append(c.isInterface() ? " extends " : " implements ").append(Arrays.stream(c.getGenericInterfaces())
                    .map(t -> t.getTypeName()).sorted().collect(Collectors.joining(", ")));
        }
        if (c.isSealed()) {
            head.append(" permits ").append(Arrays.stream(c.getPermittedSubclasses()).map(Class::getName).sorted()
                    .collect(Collectors.joining(", ")));
        }
        out.add(head.toString());
        String p = name + " ";
        if (c.isRecord()) {
            out.add(p + "record (" + Arrays.stream(c.getRecordComponents())
                    .map(r -> r.getGenericType().getTypeName() + " " + r.getName())
                    .collect(Collectors.joining(", ")) + ")");
        }
        if (c.isEnum()) {
            out.add(p + "enum constants " + Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name())
                    .collect(Collectors.joining(", ")));
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !f.isSynthetic() && !f.isEnumConstant()) {
                out.add(p + "field " + f.toGenericString());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (visible(k.getModifiers()) && !k.isSynthetic()) {
                out.add(p + "constructor " + k.toGenericString());
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                out.add(p + "method " + m.toGenericString());
            }
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static String kind(Class<?> c) {
        if (c.isAnnotation()) {
            return "@interface";
        }
        if (c.isInterface()) {
            return "interface";
        }
        if (c.isEnum()) {
            return "enum";
        }
        if (c.isRecord()) {
            return "record";
        }
        return "class";
    }
}
