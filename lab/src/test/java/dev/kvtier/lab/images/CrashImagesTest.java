package dev.kvtier.lab.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link CrashImages} on this machine's disk, on a small recorded run (pr90-evict-small with 4 KiB slots: 2,048 keys,
 * 8 MiB): a clean run's images hold in both commit modes, with chunks recovered and commits that had to survive; the
 * check finds a planted durability bug (images built as if the data device's flushes did nothing, which is what a
 * store writing a durable commit's record before its data flush would leave) and prints the command that runs it
 * again, and finds commits acknowledged at their claim (before their bytes were written);
 * and a device that exists is refused with one line, untouched.
 */
class CrashImagesTest {
    private static final List<String> SMALL = List.of("model.kvHeads=1", "model.headDim=64", "model.layers=1",
        "core.stagingBatchBytes=262144", "core.stagingPoolBytes=1048576", "engine.prefillNsPerToken=2000",
        "engine.stepFixedNs=1000000", "core.l1Fraction=0.5");

    private Path dir;

    @BeforeEach
    void scratch() throws IOException {
        // Under target/, not /tmp: O_DIRECT is refused by a tmpfs.
        final Path parent = Path.of("target", "tmp").toAbsolutePath();
        Files.createDirectories(parent);
        dir = Files.createTempDirectory(parent, "crash-images-");
    }

    @AfterEach
    void clean() throws IOException {
        deleteTree(dir);
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private record Outcome(int code, String out, String err) {}

    private Outcome run(final String mode, final int images, final PlantedFault plant) {
        return run(mode, images, plant, null, null);
    }

    private Outcome run(final String mode, final int images, final PlantedFault plant, final Path keep,
                        final Path from) {
        final List<String> sets = new ArrayList<>(SMALL);
        sets.add("core.commitMode=" + mode);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final CrashImages.Request q = new CrashImages.Request("pr90-evict-small", sets, from != null ? null
            : dir.resolve("l2.bin"), "auto", 3, images, 256, 120, plant, "crash-images test", keep, from);
        final int code = new CrashImages(q, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run();
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static long figure(final String out, final String regex) {
        final Matcher m = Pattern.compile(regex).matcher(out);
        assertTrue(m.find(), "no '" + regex + "' in:\n" + out);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"durable", "l1"})
    void shouldFindNoViolationInTheImagesOfACleanRun(final String mode) throws IOException {
        final Outcome o = run(mode, 300, PlantedFault.NONE);
        assertEquals(ExitCodes.OK, o.code(), o.out() + o.err());
        assertEquals(300, figure(o.out(), "images built ([0-9,]+)"));
        assertEquals(300, figure(o.out(), "checked ([0-9,]+), violations"));
        assertEquals(0, figure(o.out(), "violations ([0-9,]+) \\(must be 0\\)"));
        assertTrue(figure(o.out(), "recovered ([0-9,]+) chunks over all images") > 0, o.out());
        assertTrue(figure(o.out(), "([0-9,]+) commits had to survive") > 0, o.out());
        assertTrue(figure(o.out(), "with ([0-9,]+) writes torn at 4 KiB") > 0, o.out());
        assertTrue(figure(o.out(), "record: [0-9,]+ entries, ([0-9,]+) writes") > 0, o.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the device, its index and the acknowledgement log are deleted");
        }
    }

    @Test
    void shouldFindTheLostCommitsOfAStoreThatAcknowledgesBeforeItsDataIsFlushed() throws IOException {
        final Outcome o = run("durable", 200, PlantedFault.DATA_FLUSH_IGNORED);
        assertEquals(ExitCodes.INVARIANT, o.code(), o.out() + o.err());
        assertTrue(figure(o.out(), "violations ([0-9,]+) \\(must be 0\\)") > 0, o.out());
        assertTrue(figure(o.out(), "lost ([0-9,]+), wrong bytes") > 0, o.out());
        assertTrue(o.out().contains("VIOLATION image "), o.out());
        assertTrue(o.out().contains("in durable mode, recovered but UNREADABLE"), o.out());
        assertTrue(o.out().contains("FAILED: 200 images"), o.out());
        final Matcher kept = Pattern.compile("record kept in (\\S+) .*check its images again: (.*)").matcher(o.out());
        assertTrue(kept.find(), o.out());
        assertTrue(kept.group(2).startsWith("./kvtier crash-images pr90-evict-small --from-record " + kept.group(1)
            + " --seed 3 --images 200"), kept.group(2));
        assertTrue(kept.group(2).endsWith("--plant data-flush-ignored"), kept.group(2));
        // The command it printed checks the same images of the kept record again, and finds the same violations.
        final Path record = Path.of(kept.group(1));
        try {
            final Outcome again = run("durable", 200, PlantedFault.DATA_FLUSH_IGNORED, null, record);
            assertEquals(ExitCodes.INVARIANT, again.code(), again.out() + again.err());
            assertEquals(figure(o.out(), "violations ([0-9,]+) \\(must be 0\\)"),
                figure(again.out(), "violations ([0-9,]+) \\(must be 0\\)"));
            assertEquals(figure(o.out(), "lost ([0-9,]+), wrong bytes"), figure(again.out(),
                "lost ([0-9,]+), wrong bytes"));
        } finally {
            deleteTree(record);
        }
    }

    @Test
    void shouldCheckAKeptRecordAgainWithTheSameFigures() {
        final Path keep = dir.resolve("record");
        final Outcome o = run("durable", 150, PlantedFault.NONE, keep, null);
        assertEquals(ExitCodes.OK, o.code(), o.out() + o.err());
        assertTrue(Files.isRegularFile(keep.resolve("record.txt")) && Files.isRegularFile(keep.resolve("pages.bin"))
            && Files.isRegularFile(keep.resolve("acks.txt")), o.out());
        final Outcome again = run("durable", 150, PlantedFault.NONE, null, keep);
        assertEquals(ExitCodes.OK, again.code(), again.out() + again.err());
        for (final String figure : List.of("recovered ([0-9,]+) chunks", "([0-9,]+) read back", "([0-9,]+) commits "
            + "had to survive", "with ([0-9,]+) writes torn", "; ([0-9,]+) distinct")) {
            assertEquals(figure(o.out(), figure), figure(again.out(), figure), figure);
        }
    }

    @Test
    void shouldFindTheLostCommitsOfAStoreThatAcknowledgesACommitAtItsClaim() throws IOException {
        final Outcome o = run("durable", 200, PlantedFault.ACK_AT_CLAIM);
        final Matcher kept = Pattern.compile("record kept in (\\S+) ").matcher(o.out());
        assertTrue(kept.find(), "a failing check keeps its record: " + o.out());
        deleteTree(Path.of(kept.group(1)));
        assertEquals(ExitCodes.INVARIANT, o.code(), o.out() + o.err());
        assertTrue(figure(o.out(), "lost ([0-9,]+), wrong bytes") > 0, o.out());
        assertTrue(o.out().contains("--plant ack-at-claim"), o.out());
    }

    @Test
    void shouldRefuseADeviceThatExistsAndLeaveItAsItWas() throws IOException {
        final Path device = Files.writeString(dir.resolve("l2.bin"), "someone's data");
        final Outcome o = run("durable", 10, PlantedFault.NONE);
        assertEquals(ExitCodes.BAD_INPUT, o.code(), o.out() + o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().startsWith("kvtier: --device: crash-images creates its own L2 file"), o.err());
        assertEquals("someone's data", Files.readString(device));
        assertFalse(Files.exists(dir.resolve("l2.bin.index")));
        assertFalse(Files.exists(dir.resolve("l2.bin.acks")));
    }
}
