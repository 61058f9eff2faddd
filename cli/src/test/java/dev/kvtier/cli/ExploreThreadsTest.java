package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.explore.Failure;
import dev.kvtier.lab.explore.Shard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explore --threads N}: seeds run on N worker threads and the exploration gives what one thread gives, apart
 * from wall time and seeds/s: the summary, the printed lines, where it stops and the failures it lists.
 */
class ExploreThreadsTest {
    /** What varies between two explorations of the same seeds: wall time, rates, the thread count, file paths. */
    private static final Pattern WALL = Pattern.compile(
        "\"wallSeconds\" ?: ?[0-9.eE+-]+|[0-9.]+ seeds/s(, \\d+ threads)?|in [0-9.]+ s|summary: .*");

    /** A summary in which some seed tore a data page at a crash. */
    private static final Pattern TORN = Pattern.compile(
        "\"crash\\.torn-data-page\"\\s*:\\s*\\{\\s*\"seeds\"\\s*:\\s*[1-9]");

    @Test
    void shouldWriteTheSameSummaryAndLinesOnTwoAndThreeThreadsAsOnOne(@TempDir final Path dir) throws IOException {
        // Seeds 1-6 of pr90-evict-small's swarm crash and restart (torn pages, reverts) and inject faults.
        final String one = explore(dir, 1);
        final String summary = Files.readString(dir.resolve("1.json"));
        assertTrue(TORN.matcher(summary).find(), summary);
        assertTrue(one.contains("explored 6 seeds in ") && one.contains(" seeds/s): "), one);
        for (final int threads : new int[] {2, 3}) {
            final String many = explore(dir, threads);
            assertTrue(many.contains(" seeds/s, " + threads + " threads): "), many);
            assertEquals(WALL.matcher(one).replaceAll("~"), WALL.matcher(many).replaceAll("~"), "printed lines");
            assertEquals(WALL.matcher(summary).replaceAll("~"), WALL.matcher(Files.readString(dir.resolve(threads
                + ".json"))).replaceAll("~"), "summary of " + threads + " threads");
        }
    }

    @Test
    void shouldStopAtTheSameSeedAndListTheSameFailuresOnThreeThreads(@TempDir final Path dir) throws IOException {
        final Path scenario = dir.resolve("flaky.toml");
        Files.writeString(scenario, ExploreScenarios.FLAKY);
        for (final boolean keepGoing : new boolean[] {false, true}) {
            final Explorer.Result one = explore(scenario, dir.resolve("one-" + keepGoing), keepGoing, 1);
            final Explorer.Result three = explore(scenario, dir.resolve("three-" + keepGoing), keepGoing, 3);
            assertEquals(ExitCodes.INVARIANT, one.exitCode(), one.failure());
            assertEquals(one.exitCode(), three.exitCode());
            assertEquals(one.seedsRun(), three.seedsRun(), "keepGoing " + keepGoing);
            assertEquals(one.stoppedAt(), three.stoppedAt(), "keepGoing " + keepGoing);
            assertEquals(keepGoing ? 40 : one.failingSeed(), one.seedsRun());
            assertTrue(keepGoing ? one.failures().size() > 1 : one.failures().size() == 1, one.failures().toString());
            assertEquals(withoutJournal(one.failures()), withoutJournal(three.failures()), "keepGoing " + keepGoing);
            assertEquals(one.probes(), three.probes());
            for (int i = 0; i < one.failures().size(); i++) {
                assertEquals(one.failures().get(i).journal() == null, three.failures().get(i).journal() == null);
            }
            assertNotNull(three.failures().getFirst().journal(), "the first failure's journal, on the caller");
            assertTrue(Files.isDirectory(Path.of(three.failures().getFirst().journal())));
        }
    }

    @Test
    void shouldRejectAThreadCountOutsideOneToSixtyFourInOneLine() {
        for (final String bad : new String[] {"0", "65", "-2", "two"}) {
            final CliRun r = CliRun.of("explore", "pr90-evict-small", "--seeds", "1", "--threads", bad);
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), bad);
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("kvtier: ") && r.err().contains("--threads"), r.err());
            assertFalse(r.out().contains("explored"), r.out());
        }
    }

    /** {@code explore pr90-evict-small --seeds 6 --keep-going --threads N --summary DIR/N.json}: what it printed. */
    private static String explore(final Path dir, final int threads) {
        final CliRun r = CliRun.of("explore", "pr90-evict-small", "--seeds", "6", "--keep-going", "--threads",
            Integer.toString(threads), "--summary", dir.resolve(threads + ".json").toString(), "--journals",
            dir.resolve("journals-" + threads).toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
        return r.out() + r.err();
    }

    private static Explorer.Result explore(final Path scenario, final Path journals, final boolean keepGoing,
                                           final int threads) {
        final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return new Explorer(scenario.toString(), List.of(), quiet, quiet).explore(Explorer.seeds(1, 40, Shard.ALL),
            new Explorer.Options(journals, keepGoing, false, 10, threads));
    }

    private static List<Failure> withoutJournal(final List<Failure> failures) {
        return failures.stream().map(f -> f.withJournal(null)).toList();
    }
}
