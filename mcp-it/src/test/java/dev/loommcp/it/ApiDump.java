package dev.loommcp.it;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.AnnotatedTypeVariable;
import java.lang.reflect.AnnotatedWildcardType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
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
 * <p>The JSpecify nullness annotations of the signatures show where they are written, as their simple names: a
 * parameter, return type, field or record component that allows {@code null} reads {@code @Nullable java.lang.String},
 * a JSON map {@code java.util.Map<java.lang.String, @Nullable java.lang.Object>} (type-use annotations, read through
 * {@link AnnotatedType}; every JSpecify annotation is kept at run time). A line without them is exactly
 * {@code toGenericString()}'s.
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

    /**
     * A module's name, API lines and the packages it exports to everyone.
     *
     * @param module   the JPMS module name
     * @param lines    the API lines, sorted
     * @param exported the packages of its unqualified exports
     */
    record Dump(String module, List<String> lines, Set<String> exported) {
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
        return new Dump(descriptor.name(), new ArrayList<>(lines), Set.copyOf(exported));
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
                    .map(r -> type(r.getAnnotatedType()) + " " + r.getName())
                    .collect(Collectors.joining(", ")) + ")");
        }
        if (c.isEnum()) {
            out.add(p + "enum constants " + Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name())
                    .collect(Collectors.joining(", ")));
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !f.isSynthetic() && !f.isEnumConstant()) {
                out.add(p + "field " + field(f));
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (visible(k.getModifiers()) && !k.isSynthetic()) {
                out.add(p + "constructor " + executable(k, c.getTypeName() + "("));
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                out.add(p + "method " + executable(m, " " + c.getTypeName() + "." + m.getName() + "("));
            }
        }
    }

    /** A field's {@code toGenericString()} with its annotated type. */
    private static String field(Field f) {
        String plain = f.toGenericString();
        String typeName = f.getGenericType().getTypeName();
        String tail = " " + f.getDeclaringClass().getTypeName() + "." + f.getName();
        String head = plain.substring(0, plain.length() - tail.length());
        if (!plain.endsWith(tail) || !head.endsWith(typeName)) {
            throw new IllegalStateException("unexpected field signature: " + plain);
        }
        return head.substring(0, head.length() - typeName.length()) + type(f.getAnnotatedType()) + tail;
    }

    /**
     * A method's or constructor's {@code toGenericString()} with its annotated return and parameter types.
     *
     * @param e      the method or constructor
     * @param marker what comes between the return type (none for a constructor) and the parameters: the declaring
     *               type and the name, up to the opening parenthesis
     */
    private static String executable(Executable e, String marker) {
        String plain = e.toGenericString();
        int at = plain.indexOf(marker);
        if (at < 0) {
            throw new IllegalStateException("unexpected signature: " + plain);
        }
        String head = plain.substring(0, at);
        if (e instanceof Method m) {
            String returnName = m.getGenericReturnType().getTypeName();
            if (!head.endsWith(returnName)) {
                throw new IllegalStateException("unexpected return type in: " + plain);
            }
            head = head.substring(0, head.length() - returnName.length()) + type(m.getAnnotatedReturnType());
        }
        String rest = plain.substring(at + marker.length());
        java.lang.reflect.Type[] generic = e.getGenericParameterTypes();
        AnnotatedType[] annotated = e.getAnnotatedParameterTypes();
        if (generic.length != annotated.length) {
            return plain; // an inner class's constructor: the implicit outer instance is not annotated
        }
        List<String> plainParams = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (int i = 0; i < generic.length; i++) {
            boolean varargs = e.isVarArgs() && i == generic.length - 1;
            String p = generic[i].getTypeName();
            String t = type(annotated[i]);
            plainParams.add(varargs ? p.replaceFirst("\\[\\]$", "...") : p);
            params.add(varargs ? t.replaceFirst("\\[\\]$", "...") : t);
        }
        String plainList = String.join(",", plainParams) + ")";
        if (!rest.startsWith(plainList)) {
            throw new IllegalStateException("unexpected parameters in: " + plain);
        }
        return head + marker + String.join(",", params) + ")" + rest.substring(plainList.length());
    }

    /**
     * A type as {@link java.lang.reflect.Type#getTypeName()} writes it, with its JSpecify annotations (simple names)
     * in front of each part they annotate.
     */
    static String type(AnnotatedType t) {
        if (!annotated(t)) {
            return t.getType().getTypeName();
        }
        String nullness = nullness(t);
        if (t instanceof AnnotatedArrayType a) {
            return type(a.getAnnotatedGenericComponentType()) + (nullness.isEmpty() ? "" : " " + nullness.trim())
                    + "[]";
        }
        if (t instanceof AnnotatedParameterizedType p) {
            ParameterizedType pt = (ParameterizedType) p.getType();
            Class<?> raw = (Class<?>) pt.getRawType();
            String name = pt.getOwnerType() == null ? raw.getName()
                    : pt.getOwnerType().getTypeName() + "$" + raw.getSimpleName();
            return nullness + name + Arrays.stream(p.getAnnotatedActualTypeArguments()).map(ApiDump::type)
                    .collect(Collectors.joining(", ", "<", ">"));
        }
        if (t instanceof AnnotatedWildcardType w) {
            if (w.getAnnotatedLowerBounds().length > 0) {
                return nullness + "? super " + Arrays.stream(w.getAnnotatedLowerBounds()).map(ApiDump::type)
                        .collect(Collectors.joining(" & "));
            }
            AnnotatedType[] upper = w.getAnnotatedUpperBounds();
            if (upper.length == 0 || (upper.length == 1 && upper[0].getType() == Object.class
                    && !annotated(upper[0]))) {
                return nullness + "?";
            }
            return nullness + "? extends " + Arrays.stream(upper).map(ApiDump::type)
                    .collect(Collectors.joining(" & "));
        }
        if (t instanceof AnnotatedTypeVariable v) {
            return nullness + v.getType().getTypeName();
        }
        return nullness + t.getType().getTypeName();
    }

    /** The JSpecify annotations on this level of a type, for example {@code "@Nullable "}; empty when none. */
    private static String nullness(AnnotatedType t) {
        StringBuilder out = new StringBuilder();
        for (Annotation a : t.getDeclaredAnnotations()) {
            if (a.annotationType().getPackageName().equals("org.jspecify.annotations")) {
                out.append('@').append(a.annotationType().getSimpleName()).append(' ');
            }
        }
        return out.toString();
    }

    /** Whether a JSpecify annotation sits anywhere in a type. */
    private static boolean annotated(AnnotatedType t) {
        if (!nullness(t).isEmpty()) {
            return true;
        }
        if (t instanceof AnnotatedArrayType a) {
            return annotated(a.getAnnotatedGenericComponentType());
        }
        if (t instanceof AnnotatedParameterizedType p) {
            return Arrays.stream(p.getAnnotatedActualTypeArguments()).anyMatch(ApiDump::annotated);
        }
        if (t instanceof AnnotatedWildcardType w) {
            return Arrays.stream(w.getAnnotatedLowerBounds()).anyMatch(ApiDump::annotated)
                    || Arrays.stream(w.getAnnotatedUpperBounds()).anyMatch(ApiDump::annotated);
        }
        return false;
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
