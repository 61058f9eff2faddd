package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The disk's two bandwidth cells measured again for a sitting (quick plan: a 64 MiB file, 8 MiB cells). */
class DiskRecheckTest {
    @Test
    void shouldWriteTheSpanOnceThenMeasureBothCellsAsOftenAsAsked() throws Exception {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final Optional<DiskRecheck.Session> s = DiskRecheck.open(scratch.file("recheck.bin"), 0, 0, true,
                RunShape.DEFAULT);
            assertTrue(s.isPresent(), "opened with io_uring and O_DIRECT");
            try (DiskRecheck.Session session = s.get()) {
                for (int i = 0; i < 2; i++) { // reads need the span written: the session wrote it when it opened
                    final DiskRecheck.Figures f = session.measure(20_000_000L).orElseThrow();
                    assertTrue(f.readBps() > 0 && f.writeBps() > 0, f.toString());
                }
            }
        }
    }

    @Test
    void shouldSayHowFarEachCellMovedFromTheProfile() {
        final DeviceProfile p = new DeviceProfile("x", 1, 1, 1, 2_000_000_000L, 4_000_000_000L, 4);
        final DiskRecheck.Figures f = new DiskRecheck.Figures(1_800_000_000L, 4_200_000_000L);
        assertEquals(-0.10, f.readMove(p), 1e-9);
        assertEquals(0.05, f.writeMove(p), 1e-9);
        assertEquals("read 1.80 GB/s (-10 %), write 4.20 GB/s (+5 %)", f.describe(p));
    }

    @Test
    void shouldOpenNothingWhereNoFileCanBe() throws Exception {
        try (Scratch scratch = new Scratch()) {
            assertTrue(DiskRecheck.open(scratch.file("no-such-dir/recheck.bin"), 0, 0, true, RunShape.DEFAULT)
                .isEmpty());
        }
    }
}
