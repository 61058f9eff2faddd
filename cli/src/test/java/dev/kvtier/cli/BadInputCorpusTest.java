package dev.kvtier.cli;

import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad-input corpus (issue 16): a few hundred command lines a new user might type, over scenarios, options,
 * journals, devices, output paths and paths held by another run. Each must end with its exit code (2: bad input),
 * exactly one line on standard error that starts with {@code kvtier: } and names the problem, no stack trace, and
 * every file and directory that existed before exactly as it was (checksums), with nothing created. Counts are
 * printed at the end: cases, clean errors, data loss, stack traces, silent successes.
 */
class BadInputCorpusTest {
    /** The corpus must hold at least this many cases. */
    private static final int CASES_MIN = 200;

    @TempDir(factory = TargetTempDir.class)
    static Path temp;

    private static Path journal;
    private static int clean;
    private static int dataLoss;
    private static int stackTraces;
    private static int silentSuccesses;
    private static int run;

    @BeforeAll
    static void recordAJournal() throws IOException {
        final Path scenario = Files.writeString(temp.resolve("journal-scenario.toml"), TinyScenario.text("corpus",
            ""));
        journal = CliRun.record(temp.resolve("journal"), scenario.toString(), 1);
    }

    static List<BadInput> corpus() {
        final List<BadInput> all = new ArrayList<>();
        all.addAll(CorpusScenarios.all());
        all.addAll(CorpusTraces.all());
        all.addAll(CorpusOptions.all());
        all.addAll(CorpusFiles.all(() -> journal));
        return all;
    }

    @Test
    void shouldHoldAtLeastTwoHundredDistinctCases() {
        final List<BadInput> all = corpus();
        assertTrue(all.size() >= CASES_MIN, "the corpus has " + all.size() + " cases");
        final Set<String> names = new HashSet<>();
        for (final BadInput c : all) {
            assertTrue(names.add(c.name()), "two cases are named '" + c.name() + "'");
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldRefuseEachBadInputWithOneLineAndLeaveEveryFileAsItWas() {
        final List<BadInput> all = corpus();
        return all.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c, all.indexOf(c))));
    }

    @AfterAll
    static void printCounts() {
        System.out.printf(Locale.ROOT, "bad-input corpus: %d cases run, %d clean errors, %d with data loss, %d with a "
            + "stack trace, %d silent successes%n", run, clean, dataLoss, stackTraces, silentSuccesses);
    }

    private static void check(final BadInput c, final int index) throws Exception {
        final Path dir = Files.createDirectory(temp.resolve("case-" + index));
        final AutoCloseable held = c.setup().prepare(dir);
        final String[] args = c.argsIn(dir);
        final Map<String, String> before = snapshot(dir);
        final Map<String, String> outside = outside(args, dir);
        final boolean outputsExisted = Files.exists(Outputs.ROOT);
        final CliRun r;
        final Map<String, String> after;
        try {
            r = CliRun.of(args);
            after = snapshot(dir);
        } finally {
            if (held != null) {
                held.close();
            }
        }
        run++;
        final String err = r.err().strip();
        final boolean trace = r.err().contains("\tat ") || r.out().contains("\tat ") || err.contains("Exception");
        final boolean lost = !before.equals(after) || !outside.equals(outside(args, dir))
            || (!outputsExisted && Files.exists(Outputs.ROOT));
        stackTraces += trace ? 1 : 0;
        dataLoss += lost ? 1 : 0;
        silentSuccesses += r.exitCode() == ExitCodes.OK ? 1 : 0;
        final String what = c.name() + ": " + String.join(" ", args) + "\nexit " + r.exitCode() + "\nerr: " + err;
        assertEquals(before, after, what + "\nthe files of the case's directory changed");
        assertEquals(outside, outside(args, dir), what + "\na path outside the case's directory changed");
        assertTrue(outputsExisted || !Files.exists(Outputs.ROOT), what + "\n" + Outputs.ROOT + " was created");
        assertTrue(!trace, what + "\na stack trace");
        assertEquals(c.exitCode(), r.exitCode(), what);
        assertEquals(1, err.lines().count(), what + "\nnot one line");
        assertTrue(err.startsWith("kvtier: "), what);
        assertTrue(err.toLowerCase(Locale.ROOT).contains(c.mentions().toLowerCase(Locale.ROOT)), what
            + "\ndoes not mention '" + c.mentions() + "'");
        clean++;
    }

    /** Every path under {@code dir}: a directory, a link and its target, or a file's size and checksum. */
    static Map<String, String> snapshot(final Path dir) throws IOException {
        final Map<String, String> out = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path p : paths.toList()) {
                out.put(dir.relativize(p).toString(), describe(p));
            }
        }
        return out;
    }

    private static String describe(final Path p) throws IOException {
        if (Files.isSymbolicLink(p)) {
            return "link to " + Files.readSymbolicLink(p);
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return "directory";
        }
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return "special";
        }
        final CRC32C crc = new CRC32C();
        try (InputStream in = Files.newInputStream(p)) {
            final byte[] b = new byte[1 << 20];
            for (int n = in.read(b); n > 0; n = in.read(b)) {
                crc.update(b, 0, n);
            }
        }
        return Files.size(p) + " B, crc " + Long.toHexString(crc.getValue());
    }

    /** Whether each absolute path among the arguments outside {@code dir} exists, and what it is. */
    private static Map<String, String> outside(final String[] args, final Path dir) {
        final Map<String, String> out = new TreeMap<>();
        for (final String a : args) {
            if (a.startsWith("/") && !a.startsWith(dir.toString())) {
                final Path p = Path.of(a);
                try {
                    out.put(a, Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? (Files.isRegularFile(p) ? describe(p)
                        : "exists") : "absent");
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return out;
    }
}
