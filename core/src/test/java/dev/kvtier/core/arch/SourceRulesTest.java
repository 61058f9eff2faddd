package dev.kvtier.core.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.CompactConstructorDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules over every module's sources, checked as TigerBeetle's tidy checks them (docs/design/STYLE.md rules 19 and 23).
 *
 * <p><b>Size, as a ratchet.</b> A method or constructor longer than {@value #MAX_METHOD_LINES} lines (main or test),
 * or a main source file longer than {@value #MAX_MAIN_FILE_LINES} lines, must be listed in {@value #RATCHET} with
 * the reason, and a listed one may not grow. A listed item that shrank must lower its entry, and one back within the
 * limit (or gone) must leave the list, so the list only ever gets shorter. Sources are parsed with JavaParser: a
 * method's length runs from the line of its name (annotations and javadoc excluded) to its closing brace; a key is
 * {@code module/src/.../File.java#Type.name(ParamTypes)}, a file's key its path.
 *
 * <p><b>Package docs.</b> Checkstyle requires a {@code package-info.java} in every main package; here every test-only
 * package (one with no main sources of the same name in its module) needs one too.
 */
class SourceRulesTest {
    static final int MAX_METHOD_LINES = 70;
    static final int MAX_MAIN_FILE_LINES = 400;
    private static final String RATCHET = "source-rules-ratchet.txt";
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", ".mvn", "node_modules");

    private static Path root;
    private static List<Path> sources;
    private static Map<String, Integer> measured;
    private static Map<String, Integer> allowed;

    @BeforeAll
    static void measure() throws IOException {
        root = repositoryRoot();
        sources = moduleSources(root);
        final JavaParser parser = new JavaParser(new ParserConfiguration()
            .setLanguageLevel(ParserConfiguration.LanguageLevel.BLEEDING_EDGE));
        measured = new TreeMap<>();
        for (final Path file : sources) {
            measureFile(parser, file);
        }
        try (InputStream in = SourceRulesTest.class.getClassLoader().getResourceAsStream(RATCHET)) {
            if (in == null) {
                throw new AssertionError(RATCHET + " is missing from core's test resources");
            }
            allowed = parseRatchet(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldKeepMethodsAndMainFilesWithinTheirLimitsOrOnTheRatchet() {
        final List<String> problems = problems(measured, allowed);
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }

    @Test
    void shouldFindTheSourcesOfEveryModule() {
        final Set<String> modules = sources.stream().map(p -> root.relativize(p).getName(0).toString())
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("bench", "cli", "core", "harness", "journal", "lab", "property-tests",
            "realio", "scenarios", "sim")), modules, "modules with sources");
        assertTrue(sources.size() > 300, "expected the whole repository's sources, found " + sources.size());
        assertTrue(sources.stream().anyMatch(p -> p.endsWith("SourceRulesTest.java")), "test sources are measured");
    }

    @Test
    void shouldGiveEveryTestOnlyPackageAPackageInfo() {
        final Set<Path> missing = new TreeSet<>();
        for (final Path file : sources) {
            final Path dir = file.getParent();
            final String rel = root.relativize(dir).toString().replace('\\', '/');
            if (rel.contains("/src/test/java/") && !Files.exists(dir.resolve("package-info.java"))
                && !Files.isDirectory(root.resolve(rel.replace("/src/test/java/", "/src/main/java/")))) {
                missing.add(root.relativize(dir));
            }
        }
        assertEquals(Set.of(), missing, "test-only packages without a package-info.java saying what they hold");
    }

    /** The ratchet itself, over a made-up measurement: what it must refuse, and what it must let through. */
    @Test
    void shouldRefuseNewGrownShrunkAndStaleItemsAndAcceptListedOnes() {
        final Map<String, Integer> now = Map.of("a/New.java#T.m()", 71, "a/Grown.java#T.m()", 90,
            "a/Shrunk.java#T.m()", 80, "a/Same.java", 450);
        final Map<String, Integer> list = parseRatchet("""
            # a comment
            a/Grown.java#T.m() 89 # why
            a/Shrunk.java#T.m() 81 # why
            a/Same.java 450 # why

            a/Gone.java#T.m() 75 # why
            """);
        assertEquals(List.of("a/Grown.java#T.m() grew to 90 lines; the ratchet allows 89",
            "a/New.java#T.m() has 71 lines, over the limit of 70: shorten it, or list it in " + RATCHET
                + " with the reason",
            "a/Gone.java#T.m() is within its limit now (or gone): remove it from " + RATCHET,
            "a/Shrunk.java#T.m() shrank to 80 lines: lower its entry in " + RATCHET + " to 80"),
            problems(now, list));
        assertEquals(List.of(), problems(Map.of("a/Same.java", 450), Map.of("a/Same.java", 450)));
    }

    @Test
    void shouldRefuseARatchetLineWithoutAReasonOrTwice() {
        for (final String bad : List.of("a/X.java 500", "a/X.java 500 #", "a/X.java 500 #  ", "a/X.java many # why",
            "a/X.java 500 # why\na/X.java 500 # again")) {
            final AssertionError e = assertThrows(AssertionError.class, () -> parseRatchet(bad), bad);
            assertTrue(e.getMessage().startsWith(RATCHET + ": "), e.getMessage());
        }
    }

    static List<String> problems(final Map<String, Integer> now, final Map<String, Integer> list) {
        final List<String> problems = new ArrayList<>();
        for (final Map.Entry<String, Integer> e : new TreeMap<>(now).entrySet()) {
            final Integer limit = list.get(e.getKey());
            if (limit == null) {
                problems.add(e.getKey() + " has " + e.getValue() + " lines, over the limit of " + limitFor(e.getKey())
                    + ": shorten it, or list it in " + RATCHET + " with the reason");
            } else if (e.getValue() > limit) {
                problems.add(e.getKey() + " grew to " + e.getValue() + " lines; the ratchet allows " + limit);
            }
        }
        for (final Map.Entry<String, Integer> e : new TreeMap<>(list).entrySet()) {
            final Integer lines = now.get(e.getKey());
            if (lines == null) {
                problems.add(e.getKey() + " is within its limit now (or gone): remove it from " + RATCHET);
            } else if (lines < e.getValue()) {
                problems.add(e.getKey() + " shrank to " + lines + " lines: lower its entry in " + RATCHET + " to "
                    + lines);
            }
        }
        return problems;
    }

    /** The rule over one file: its methods and constructors, and its length when it is main code. */
    private static void measureFile(final JavaParser parser, final Path file) throws IOException {
        final String rel = root.relativize(file).toString().replace('\\', '/');
        final ParseResult<CompilationUnit> parsed = parser.parse(file);
        if (!parsed.isSuccessful() || parsed.getResult().isEmpty()) {
            throw new AssertionError("cannot parse " + rel + ": " + parsed.getProblems());
        }
        final CompilationUnit unit = parsed.getResult().get();
        for (final CallableDeclaration<?> m : unit.findAll(CallableDeclaration.class)) {
            final String params = m.getParameters().stream().map(p -> p.getType().asString().replaceAll("\\s", ""))
                .collect(Collectors.joining(","));
            measureMember(rel + "#" + owner(m) + "." + m.getNameAsString() + "(" + params + ")", m, m.getName());
        }
        for (final CompactConstructorDeclaration c : unit.findAll(CompactConstructorDeclaration.class)) {
            measureMember(rel + "#" + owner(c) + "." + c.getNameAsString() + "{}", c, c.getName());
        }
        if (rel.contains("/src/main/")) {
            final int lines = Files.readAllLines(file, StandardCharsets.UTF_8).size();
            if (lines > MAX_MAIN_FILE_LINES) {
                measured.put(rel, lines);
            }
        }
    }

    private static void measureMember(final String key, final Node member, final Node name) {
        final int lines = member.getEnd().orElseThrow().line - name.getBegin().orElseThrow().line + 1;
        if (lines > MAX_METHOD_LINES && measured.put(key, lines) != null) {
            throw new AssertionError("two methods over the limit measure as " + key + ": rename one");
        }
    }

    private static String owner(final Node member) {
        for (Node n = member.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration<?> type) {
                return type.getNameAsString();
            }
        }
        return "?";
    }

    private static int limitFor(final String key) {
        return key.contains("#") ? MAX_METHOD_LINES : MAX_MAIN_FILE_LINES;
    }

    /** {@code key lines # reason}, one a line; blank lines and lines starting with # are comments. */
    static Map<String, Integer> parseRatchet(final String text) {
        final Map<String, Integer> out = new TreeMap<>();
        for (final String raw : text.split("\n", -1)) {
            final String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] parts = line.split("\\s+", 3);
            if (parts.length < 3 || !parts[1].matches("[0-9]+") || !parts[2].startsWith("#")
                || parts[2].substring(1).isBlank()) {
                throw new AssertionError(RATCHET + ": '" + line + "' is not 'key lines # reason'");
            }
            if (out.put(parts[0], Integer.parseInt(parts[1])) != null) {
                throw new AssertionError(RATCHET + ": " + parts[0] + " is listed twice");
            }
        }
        return out;
    }

    /** Every .java file under a module's src/main/java or src/test/java, in path order; build outputs skipped. */
    private static List<Path> moduleSources(final Path from) throws IOException {
        final List<Path> out = new ArrayList<>();
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attrs) {
                final boolean skipped = !dir.equals(from)
                    && SKIPPED_DIRECTORIES.contains(String.valueOf(dir.getFileName()));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) {
                final String s = file.toString().replace('\\', '/');
                if (s.endsWith(".java") && (s.contains("/src/main/java/") || s.contains("/src/test/java/"))) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    /** The repository root: the parent of the module this test runs in. */
    private static Path repositoryRoot() {
        final Path here = Path.of("").toAbsolutePath();
        final Path found = Files.exists(here.resolve("core").resolve("pom.xml")) ? here : here.getParent();
        if (!Files.exists(found.resolve("pom.xml")) || !Files.isDirectory(found.resolve("core"))) {
            throw new AssertionError("cannot find the repository root from " + here);
        }
        return found;
    }
}
