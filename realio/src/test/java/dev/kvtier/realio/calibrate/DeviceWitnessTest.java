package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.host.ProcStat;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The block device's own counters as a witness of a meter's figure, and what calibrate makes of it. */
class DeviceWitnessTest {
    private static final long MIB = 1L << 20;
    private static final Cell CELL = new Cell(IoOp.WRITE, 64 * MIB, 8);
    private static final DeviceProfile PROFILE = new DeviceProfile("x", 1, 1, 1, 2_000_000_000L, 2_000_000_000L, 4);

    @Test
    void shouldConfirmAFigureOnlyWhenTheDeviceSawEnoughOfEveryRound() {
        final SideBySide.Spread claimed = spread(3_000_000_000L, 2_000_000_000L);
        assertTrue(new SideBySide.Witness(List.of(3_000_000_000L, 1_950_000_000L)).confirms(claimed));
        assertTrue(new SideBySide.Witness(List.of(3_500_000_000L, 2_500_000_000L)).confirms(claimed),
            "other processes' I/O only adds to the counters");
        assertFalse(new SideBySide.Witness(List.of(3_000_000_000L, 1_900_000_000L)).confirms(claimed),
            "one round the device saw 5 % less of");
        assertFalse(new SideBySide.Witness(List.of(3_000_000_000L)).confirms(claimed), "a round without counters");
        assertFalse(SideBySide.Witness.NONE.confirms(claimed));
    }

    @Test
    void shouldTakeAFigureAboveFioThatTheDeviceConfirmsAndRefuseOneItDoesNot() {
        final SideBySide.Spread kvtier = spread(3_000_000_000L);
        final SideBySide.Spread fio = spread(2_400_000_000L);
        final SideBySide.Comparison confirmed = new SideBySide.Comparison(CELL, FioRunner.Buffers.HUGE_PAGES, kvtier,
            fio, kvtier, seen(3_010_000_000L), seen(3_010_000_000L));
        assertTrue(DeviceCalibration.suspect(PROFILE, List.of(confirmed), DeviceCalibration.Checks.NONE).isEmpty());

        final SideBySide.Comparison unread = new SideBySide.Comparison(CELL, FioRunner.Buffers.HUGE_PAGES, kvtier,
            fio, kvtier);
        final List<String> s = DeviceCalibration.suspect(PROFILE, List.of(unread), DeviceCalibration.Checks.NONE);
        assertEquals(1, s.size(), s.toString());
        assertTrue(s.getFirst().contains("+25 % of fio's") && s.getFirst().contains("could not be read"),
            s.getFirst());

        final SideBySide.Comparison short1 = new SideBySide.Comparison(CELL, FioRunner.Buffers.HUGE_PAGES, kvtier,
            fio, kvtier, seen(2_500_000_000L), seen(2_500_000_000L));
        final List<String> t = DeviceCalibration.suspect(PROFILE, List.of(short1), DeviceCalibration.Checks.NONE);
        assertEquals(2, t.size(), t.toString());
        assertTrue(t.get(0).contains("less than it"), t.get(0));
        assertTrue(t.get(1).contains("never reached the device"), t.get(1));
    }

    @Test
    void shouldRefuseAProfileFigureTheDeviceSawLessOfEvenWhenFioAgreesWithTheOtherMeter() {
        final SideBySide.Spread small = spread(2_400_000_000L);
        final SideBySide.Spread huge = spread(3_600_000_000L);
        final SideBySide.Comparison c = new SideBySide.Comparison(CELL, FioRunner.Buffers.SMALL_PAGES, small,
            spread(2_400_000_000L), huge, seen(2_450_000_000L), seen(1_000_000_000L));
        final List<String> s = DeviceCalibration.suspect(PROFILE, List.of(c), DeviceCalibration.Checks.NONE);
        assertEquals(1, s.size(), s.toString());
        assertTrue(s.getFirst().contains("on huge pages (the profile's figure)"), s.getFirst());
    }

    /** A real meter's writes show up in the device's counters; writes that never leave the process do not. */
    @Test
    void shouldSeeARealMetersWritesAndNotADroppingDevicesWrites() {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final Path file = scratch.file("witness.bin");
            Assumptions.assumeTrue(ProcStat.blockBytes(file).length == 2, "no block device counters under " + file);
            final long span = 64 * MIB;
            try (NativeMemory memory = new NativeMemory(16 * MIB);
                 PolledDevice real = IoUringDevice.open(file, span, 8, memory).orThrow();
                 PolledDevice dropping = new WriteDropping(real)) {
                final SideBySide.Target t = new SideBySide.Target(DeviceFile.whole(file, span), 1, 200_000_000L,
                    () -> 0);
                final Cell cell = new Cell(IoOp.WRITE, MIB, 4);
                final IoMeter honest = new IoMeter(real, memory.allocate("b", 4 * MIB), span);
                final List<Long> seenReal = new ArrayList<>();
                final long claimed = SideBySide.seen(cell, t, seenReal, () -> honest.measure(IoOp.WRITE, MIB, 4,
                    200_000_000L, 1));
                assertTrue(new SideBySide.Witness(seenReal).confirms(spread(claimed)),
                    "claimed " + claimed + " B/s, device " + seenReal);

                final IoMeter lying = honest.sibling(dropping, memory.allocate("c", 4 * MIB));
                final List<Long> seenDropped = new ArrayList<>();
                final long inflated = SideBySide.seen(cell, t, seenDropped, () -> lying.measure(IoOp.WRITE, MIB, 4,
                    200_000_000L, 2));
                assertFalse(new SideBySide.Witness(seenDropped).confirms(spread(inflated)),
                    "claimed " + inflated + " B/s, device " + seenDropped);
            }
        }
    }

    private static SideBySide.Spread spread(final Long... bps) {
        return new SideBySide.Spread(List.of(bps));
    }

    private static SideBySide.Witness seen(final long bps) {
        return new SideBySide.Witness(List.of(bps));
    }
}
