package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runs at once, in two processes (issue 36): while a real run in a child JVM holds its device, its index and its
 * journal, a second child JVM given the same device, or the same journal, is refused at once with one line naming the
 * first run's pid and exit 2, and writes nothing of the first's: the first's file headers are as they were, its
 * journal replays identical once it is interrupted, and a run that recovers its device finds its keys and loads them
 * right. ({@code ClaimTest} and {@code JournalLockTest} hold the lock in the test's own process.)
 */
class ConcurrentRunsTest {
    private static final int HEADER = 4096;

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldRefuseASecondProcessOnTheSameDeviceOrJournalAndLeaveTheFirstsDataIntact() throws Exception {
        final Path device = dir.resolve("l2.bin");
        final Path index = dir.resolve("l2.bin.index");
        final Path journal = dir.resolve("j");
        final List<String> firstArgs = new ArrayList<>(List.of("run", "pr90-evict-small", "--mode", "real",
            "--device", device.toString(), "--journal", journal.toString()));
        firstArgs.addAll(SignalTest.sets(SignalTest.REAL_SMALL, "phase.0.requests=4000", "phase.1.requests=4000"));
        final ChildCli first = ChildCli.start(firstArgs, dir);
        first.awaitLine(" formatted in ");
        final long pid = first.process().pid();
        final byte[] deviceHeader = head(device);
        final byte[] indexHeader = head(index);

        final List<String> sameDevice = new ArrayList<>(List.of("run", "pr90-evict-small", "--mode", "real",
            "--device", device.toString(), "--journal", dir.resolve("j2").toString()));
        sameDevice.addAll(SignalTest.sets(SignalTest.REAL_SMALL));
        refused(ChildCli.run(sameDevice, dir), "--device " + device + " is in use by pid " + pid + " (kvtier run ");
        assertTrue(Files.notExists(dir.resolve("j2")), "the refused run made no journal");
        refused(ChildCli.run(List.of("run", "pr90-evict-small", "--journal", journal.toString()), dir),
            journal + ": journal in use: another run writes it: pid " + pid + " (kvtier run ");
        assertTrue(first.process().isAlive(), "the first run goes on: " + first.describe());
        assertArrayEquals(deviceHeader, head(device), "the device's header is the first run's");
        assertArrayEquals(indexHeader, head(index), "the index's header is the first run's");

        first.signal("TERM");
        assertEquals(143, first.exit(), first.describe());
        final ChildCli.Ended replay = ChildCli.run(List.of("replay", journal.toString()), dir);
        assertEquals(0, replay.exitCode(), replay.out() + replay.err());
        assertTrue(replay.out().contains("identical: "), replay.out());
        final List<String> recover = new ArrayList<>(List.of("run", "pr90-evict-small", "--mode", "real",
            "--device", device.toString(), "--recover"));
        recover.addAll(SignalTest.sets(SignalTest.REAL_SMALL, "phase.0.requests=16", "phase.1.requests=16"));
        final ChildCli.Ended again = ChildCli.run(recover, dir);
        assertEquals(0, again.exitCode(), again.out() + again.err());
        final Matcher recovered = Pattern.compile("recovered: ([0-9]+) chunks").matcher(again.out());
        assertTrue(recovered.find() && Integer.parseInt(recovered.group(1)) > 0, again.out());
        assertTrue(again.out().contains("OK: all invariants held"), "every loaded byte is its key's: " + again.out());
        final Matcher fromL2 = Pattern.compile("(?m)^  L2 +([0-9,]+) ").matcher(again.out());
        assertTrue(fromL2.find() && !fromL2.group(1).equals("0"), "the first run's keys were loaded: " + again.out());
    }

    /** Refused at once: exit 2, and one line on standard error that names the holder. */
    private static void refused(final ChildCli.Ended run, final String says) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("kvtier: ") && run.err().contains(says), run.err());
    }

    private static byte[] head(final Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(HEADER);
        }
    }
}
