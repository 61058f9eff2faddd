package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.journal.file.JournalNotes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupted work is kept (issue 35): a journaled run, a real run and an exploration, each in a child JVM, get SIGINT
 * or SIGTERM mid-way; each exits with the signal's status, says in one line what it kept, and what it kept is usable:
 * the journal replays identical up to where the run stopped and says it was interrupted, and the exploration's summary
 * merges as a partial one. A run that lost its journal, or a summary not written, fails here.
 */
class SignalTest {
    /** A virtual run far longer than the test waits: 40,000 requests of pr90-evict. */
    private static final List<String> LONG_RUN = List.of("run", "pr90-evict", "--set", "workload.prompts=20000",
        "--set", "phase.0.requests=20000", "--set", "phase.1.requests=20000", "--set", "core.l2Fraction=0.05");
    private static final Duration LIMIT = ChildCli.LIMIT;
    /** pr90-evict-small with 4 layers (512 MiB of KV) and small staging, for real runs on this machine. */
    static final List<String> REAL_SMALL = List.of("model.layers=4", "core.stagingBatchBytes=4194304",
        "core.stagingPoolBytes=8388608");

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void shouldSealTheJournalOfAnInterruptedRun(final String signal, final int status) throws Exception {
        final Path journal = dir.resolve("j");
        final List<String> args = new ArrayList<>(LONG_RUN);
        args.addAll(List.of("--journal", journal.toString()));
        final ChildCli child = ChildCli.start(args, dir);
        child.awaitLine("progress: virtual run");
        child.signal(signal);
        assertEquals(status, child.exit(), child.describe());
        assertTrue(child.has("kvtier: interrupted after "), child.describe());
        assertTrue(child.has("kept the journal " + journal), child.describe());
        assertTrue(JournalNotes.read(journal, JournalNotes.INTERRUPTED).isPresent(),
            "the journal is marked interrupted");
        final CliRun replay = CliRun.of("replay", journal.toString());
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("identical: "), replay.out());
        assertTrue(replay.out().contains("interrupted: SIGINT or SIGTERM after "), replay.out());
    }

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void shouldCloseAnInterruptedRealRunAndKeepItsJournal(final String signal, final int status) throws Exception {
        final Path journal = dir.resolve("real-j");
        final Path device = dir.resolve("l2.bin");
        final List<String> args = new ArrayList<>(List.of("run", "pr90-evict-small", "--mode", "real", "--device",
            device.toString(), "--journal", journal.toString()));
        args.addAll(sets(REAL_SMALL, "phase.0.requests=4000", "phase.1.requests=4000"));
        final ChildCli child = ChildCli.start(args, dir);
        child.awaitLine(" formatted in ");
        child.signal(signal);
        assertEquals(status, child.exit(), child.describe());
        assertTrue(child.has("kvtier: interrupted after "), child.describe());
        assertTrue(JournalNotes.read(journal, JournalNotes.INTERRUPTED).isPresent(), child.describe());
        final List<String> again0 = new ArrayList<>(List.of("run", "pr90-evict-small", "--mode", "real", "--device",
            device.toString()));
        again0.addAll(sets(REAL_SMALL, "phase.0.requests=4", "phase.1.requests=4"));
        final CliRun again = CliRun.of(again0.toArray(String[]::new));
        assertEquals(0, again.exitCode(), "the device was closed and unlocked: a new run takes it\n" + again.err());
    }

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void shouldWriteAPartialSummaryOfAnInterruptedExploration(final String signal, final int status) throws Exception {
        final Path summaries = dir.resolve("summaries");
        Files.createDirectories(summaries);
        final ChildCli child = ChildCli.start(List.of("explore", "pr90-evict-small", "--seeds", "100000", "--summary",
            summaries + "/"), dir);
        child.awaitLine("seeds/s");
        child.signal(signal);
        assertEquals(status, child.exit(), child.describe());
        assertTrue(child.has("kvtier: interrupted after "), child.describe());
        assertTrue(child.has("marked partial"), child.describe());
        final CliRun merge = CliRun.of("explore", "merge", summaries.toString());
        assertEquals(2, merge.exitCode(), "a partial summary leaves seeds uncovered\n" + merge.out() + merge.err());
        assertTrue(merge.out().contains("(a partial summary)"), merge.out());
        final CliRun allowed = CliRun.of("explore", "merge", summaries.toString(), "--allow-missing");
        assertEquals(0, allowed.exitCode(), allowed.out() + allowed.err());
    }

    @Test
    void shouldSalvageTheJournalOfARunKilledBySigkill() throws Exception {
        final Path journal = dir.resolve("killed");
        final List<String> args = new ArrayList<>(LONG_RUN);
        args.addAll(List.of("--journal", journal.toString()));
        final ChildCli child = ChildCli.start(args, dir);
        child.awaitLine("progress: virtual run");
        child.process().toHandle().destroyForcibly();
        assertTrue(child.process().waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), "the killed child exited");
        final CliRun refused = CliRun.of("replay", journal.toString());
        assertEquals(2, refused.exitCode(), "an unsealed journal is refused without --salvage");
        assertTrue(refused.err().contains("no kvtier-journal.seal"), refused.err());
        final CliRun salvaged = CliRun.of("replay", journal.toString(), "--salvage");
        assertEquals(0, salvaged.exitCode(), salvaged.out() + salvaged.err());
        final Matcher kept = Pattern.compile("identical: ([0-9]+) events").matcher(salvaged.out());
        assertTrue(kept.find() && Long.parseLong(kept.group(1)) > 0, salvaged.out());
        assertTrue(salvaged.out().contains("salvaged ") && salvaged.out().contains("(the writer was killed)"),
            salvaged.out());
    }

    /** {@code --set} for each of {@code common} and {@code more}. */
    static List<String> sets(final List<String> common, final String... more) {
        final List<String> out = new ArrayList<>();
        for (final String s : common) {
            out.addAll(List.of("--set", s));
        }
        for (final String s : more) {
            out.addAll(List.of("--set", s));
        }
        return out;
    }
}
