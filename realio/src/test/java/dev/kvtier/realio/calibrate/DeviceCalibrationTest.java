package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class DeviceCalibrationTest {
    private static final long MIB = 1L << 20;
    /** The profile and the cell the suspect and below-fio rules are tried on. */
    private static final DeviceProfile JUDGED = new DeviceProfile("x", 1, 1, 1, 5_000_000_000L, 2_000_000_000L, 4);
    private static final Cell JUDGED_CELL = new Cell(IoOp.READ, 64 * MIB, 8);

    @Test
    void shouldWriteAProfileWithTheEightKeysEveryMeasurementThePreconditioningAndTheDrain() throws Exception {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final Path toml = scratch.file("profile.toml");
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            final CalibrationRun.Outcome o = CalibrationRun.run(new CalibrationRun.Options(scratch.file("cal.bin"), 0,
                toml, "test-disk", true, RunShape.DEFAULT, 0, DeviceCalibration.Checks.NONE, false),
                new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(CalibrationRun.OK, o.code(), log.toString(StandardCharsets.UTF_8));
            final String text = Files.readString(toml);
            assertTrue(text.contains("\nname = \"test-disk\"\n"), text);
            for (final String key : List.of("readLatencyNs", "writeLatencyNs", "flushLatencyNs", "readBytesPerSec",
                "writeBytesPerSec", "parallelism", "drainBytesPerSec")) {
                final Matcher m = Pattern.compile("(?m)^" + key + " = (\\d+)$").matcher(text);
                assertTrue(m.find(), key + " in\n" + text);
                assertTrue(Long.parseLong(m.group(1)) > 0, key);
            }
            assertTrue(text.startsWith("# kvtier device profile"), text);
            assertTrue(text.contains("# preconditioned: all 64 MiB written in this run before any read"), text);
            assertTrue(text.contains("# drain: 4 timed FLUSHes after write passes (full: 64 MiB written in "), text);
            assertTrue(text.contains("; wait 0.00 s: 16 MiB written in ") && text.contains("; wait 0.02 s: 16 MiB")
                && text.contains("; 4 bursts, gaps 0.01 s: 64 MiB written in "), text);
            assertTrue(Pattern.compile("(?m)^drainDelayNs = \\d+$").matcher(text).find(), text);
            // 2 ops x 2 blocks x 3 depths, then the run's cells: slot-sized and largest (8 MiB cap) at depths 1, 8.
            assertEquals(12 + 8, text.split("\\[\\[measurement]]", -1).length - 1, text);
            assertTrue(text.contains("op = \"write\"\nblockBytes = 8388608\ndepth = 8\nbytesPerSec = "), text);
            assertTrue(text.contains("op = \"read\"\nblockBytes = 7077888\ndepth = 8\nbytesPerSec = "), text);
            assertFalse(text.contains("suspect"), text);
        }
    }

    /** With fio installed (.ci/run installs it), the profile's bandwidth cells are compared side by side. */
    @Test
    void shouldCompareTheBandwidthCellsWithFioOnTheSameFile() throws Exception {
        Uring.assumeAvailable();
        Assumptions.assumeTrue(FioRunner.available(), "fio is not installed (apt-get install fio)");
        try (Scratch scratch = new Scratch()) {
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            final CalibrationRun.Outcome o = CalibrationRun.run(new CalibrationRun.Options(scratch.file("fio.bin"), 0,
                scratch.file("fio.toml"), "fio-disk", true, new RunShape(MIB, 4 * MIB, 4 * MIB, 4), 0,
                new DeviceCalibration.Checks(true, 2, 200_000_000L, 0, 0), true),
                new PrintStream(log, true, StandardCharsets.UTF_8));
            final String out = log.toString(StandardCharsets.UTF_8);
            assertEquals(CalibrationRun.OK, o.code(), out);
            final List<SideBySide.Comparison> c = o.calibration().comparisons();
            assertEquals(List.of(new Cell(IoOp.READ, 4 * MIB, 4), new Cell(IoOp.WRITE, 4 * MIB, 4)),
                c.stream().map(SideBySide.Comparison::cell).toList(), out);
            for (final SideBySide.Comparison x : c) {
                assertEquals(2, x.kvtier().values().size());
                assertEquals(2, x.fio().values().size());
                assertTrue(x.fio().median() > 0 && x.kvtier().median() > 0, out);
            }
            assertTrue(o.calibration().notes().stream().anyMatch(n -> n.startsWith("fio side by side on the same "
                + "preconditioned file: 2 round(s) of 200 ms")), o.calibration().notes().toString());
            final String toml = Files.readString(scratch.file("fio.toml"));
            assertEquals(2, toml.split("\\[\\[comparison]]", -1).length - 1, toml);
            assertEquals(o.calibration().profile().readBytesPerSec(), c.getFirst().profile().median(),
                "the profile takes the side-by-side median");
        }
    }

    /** A claimed scratch file keeps kvtier's header: the meter and fio (when installed) start at the base offset. */
    @Test
    void shouldNeverWriteBeforeTheBaseOffset() throws Exception {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final Path file = scratch.file("claimed.bin");
            final byte[] header = new byte[4096];
            for (int i = 0; i < header.length; i++) {
                header[i] = (byte) (i * 31 + 7);
            }
            Files.write(file, header);
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            final PrintStream ps = new PrintStream(log, true, StandardCharsets.UTF_8);
            final CalibrationRun.Outcome o = CalibrationRun.run(new CalibrationRun.Options(file, 4096,
                scratch.file("offset.toml"), "offset-disk", true, new RunShape(MIB, 4 * MIB, 4 * MIB, 4), 0,
                new DeviceCalibration.Checks(FioRunner.available(), 1, 100_000_000L, 0, 0), true), ps, ps);
            assertEquals(CalibrationRun.OK, o.code(), log.toString(StandardCharsets.UTF_8));
            final byte[] after = new byte[4096];
            try (java.io.InputStream in = Files.newInputStream(file)) {
                assertEquals(4096, in.readNBytes(after, 0, 4096));
            }
            assertTrue(java.util.Arrays.equals(header, after), "the 4096 bytes before the base offset changed");
            assertEquals(4096 + 64 * MIB, Files.size(file), "the file holds the base offset and the plan's 64 MiB");
        }
    }

    @Test
    void shouldRefuseAReadCellBeforeTheWholeSpanWasWrittenInThisRun() {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch(); NativeMemory memory = new NativeMemory(8 * MIB);
             PolledDevice device = IoUringDevice.open(scratch.file("fresh.bin"), 4 * MIB, 4, memory).orThrow()) {
            final IoMeter meter = new IoMeter(device, memory.allocate("b", MIB), 4 * MIB);
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> meter.measure(IoOp.READ, 4096, 1, 1_000_000, 1));
            assertTrue(e.getMessage().contains("only bytes this run wrote"), e.getMessage());
            meter.measure(IoOp.WRITE, 4096, 1, 1_000_000, 1);
            assertThrows(IllegalStateException.class, () -> meter.measure(IoOp.READ, 4096, 1, 1_000_000, 1),
                "random writes are not a full pass");
            meter.fill(MIB);
            assertTrue(meter.measure(IoOp.READ, 4096, 1, 1_000_000, 1).operations() > 0);
        }
    }

    @Test
    void shouldReadBackNothingFromAFileThatWasOnlyAllocatedAndEverythingOnceFilled() {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch(); NativeMemory memory = new NativeMemory(8 * MIB);
             PolledDevice device = IoUringDevice.open(scratch.file("fallocated.bin"), 8 * MIB, 4, memory)
                 .orThrow()) {
            final IoMeter meter = new IoMeter(device, memory.allocate("b", MIB), 8 * MIB);
            assertEquals(16, meter.readBack(16, 3), "an unwritten extent reads as zeros");
            meter.fill(MIB);
            assertEquals(0, meter.readBack(16, 3));
            final IoMeter other = new IoMeter(device, memory.allocate("c", MIB), 8 * MIB);
            assertEquals(16, other.readBack(16, 3), "another run's fill is not this run's");
        }
    }

    /**
     * The old failure: reads of a file that holds nothing written measure nothing, at memory speed. A device whose
     * writes never land (they complete, but the file stays fallocated-only) now yields no profile at all.
     */
    @Test
    void shouldMakeNoProfileFromAFileThatWasNeverReallyWritten() {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final DeviceCalibration.Plan plan = DeviceCalibration.quick(new RunShape(MIB, 4 * MIB, 4 * MIB, 4));
            try (NativeMemory memory = new NativeMemory(plan.bufferBytes() + 8 * MIB);
                 PolledDevice real = IoUringDevice.open(scratch.file("sparse.bin"), plan.fileBytes(),
                     plan.depthMax(), memory).orThrow();
                 PolledDevice dropping = new WriteDropping(real)) {
                final DeviceCalibration.NotPreconditioned e = assertThrows(DeviceCalibration.NotPreconditioned.class,
                    () -> DeviceCalibration.calibrate(dropping, memory, "sparse", plan, DeviceCalibration.Checks.NONE,
                        DeviceFile.whole(scratch.file("sparse.bin"), plan.fileBytes()),
                        new PrintStream(new ByteArrayOutputStream(), true,
                            StandardCharsets.UTF_8)));
                assertTrue(e.getMessage().startsWith("64 of 64 sampled pages"), e.getMessage());
            }
        }
    }

    @Test
    void shouldCallAFigureSuspectAboveFioOrAboveALimit() {
        final SideBySide.Comparison high = comparison(JUDGED_CELL, 3_500_000_000L, 3_000_000_000L);
        final SideBySide.Comparison near = comparison(JUDGED_CELL, 3_300_000_000L, 3_000_000_000L);
        assertTrue(DeviceCalibration.suspect(JUDGED, List.of(near), DeviceCalibration.Checks.NONE).isEmpty());
        final List<String> s = DeviceCalibration.suspect(JUDGED, List.of(high), DeviceCalibration.Checks.NONE);
        assertEquals(1, s.size(), s.toString());
        assertTrue(s.getFirst().contains("+17 % of fio's"), s.getFirst());
        final DeviceCalibration.Checks limits = new DeviceCalibration.Checks(false, 1, 1_000_000_000L,
            4_000_000_000L, 0);
        assertEquals(List.of("read bandwidth 5.000 GB/s is above the limit set, 4.000 GB/s"),
            DeviceCalibration.suspect(JUDGED, List.of(near), limits));
    }

    @Test
    void shouldNoteAFigureFarBelowFioWithoutCallingItSuspect() {
        final SideBySide.Comparison low = comparison(JUDGED_CELL, 2_400_000_000L, 3_000_000_000L);
        final SideBySide.Comparison near = comparison(JUDGED_CELL, 2_700_000_000L, 3_000_000_000L);
        assertTrue(DeviceCalibration.belowFio(List.of(near)).isEmpty());
        final List<String> notes = DeviceCalibration.belowFio(List.of(low, near));
        assertEquals(1, notes.size(), notes.toString());
        assertTrue(notes.getFirst().contains("-20 % of fio's") && notes.getFirst().contains("understate the disk"),
            notes.getFirst());
        assertTrue(DeviceCalibration.suspect(JUDGED, List.of(low), DeviceCalibration.Checks.NONE).isEmpty(),
            "below fio is not inflated");
    }

    @Test
    void shouldEscapeStringsAndNeverWriteABareNewline() {
        assertEquals("\"a\\\"b\\\\c\\nd\"", ProfileToml.string("a\"b\\c\nd"));
        final Calibration p = new Calibration(new DeviceProfile("x", 1, 2, 3, 4, 5, 6),
            List.of(new Measurement(IoOp.WRITE, 4096, 1, 10, 2, 500, 20, 0)));
        final String text = ProfileToml.write(p, "");
        assertTrue(text.startsWith("name = \"x\"\nreadLatencyNs = 1\n"), text);
        assertTrue(text.endsWith("""
            [[measurement]]
            op = "write"
            blockBytes = 4096
            depth = 1
            bytesPerSec = 10
            iops = 2
            meanLatencyNs = 500
            """), text);
    }

    @Test
    void shouldRefuseAPlanWithoutTheCellsTheProfileNeeds() {
        assertThrows(IllegalArgumentException.class, () -> new DeviceCalibration.Plan(List.of(MIB), List.of(1, 16, 32),
            1, 64 * MIB, 1, new DrainCalibration.Plan(1, 0, List.of(), List.of()), RunShape.DEFAULT, 8 * MIB));
        assertThrows(IllegalArgumentException.class, () -> new DeviceCalibration.Plan(List.of(4096L), List.of(1, 16),
            1, 64 * MIB, 1, new DrainCalibration.Plan(1, 0, List.of(), List.of()), RunShape.DEFAULT, 8 * MIB));
    }

    private static SideBySide.Comparison comparison(final Cell cell, final long kvtier, final long fio) {
        final SideBySide.Spread k = new SideBySide.Spread(List.of(kvtier));
        return new SideBySide.Comparison(cell, FioRunner.Buffers.HUGE_PAGES, k, new SideBySide.Spread(List.of(fio)),
            k);
    }
}
