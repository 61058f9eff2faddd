package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.DeviceFile;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class SideBySideTest {
    private static final long MIB = 1L << 20;

    /**
     * Every timed run, kvtier's and fio's, starts from a settled disk: the settle (a FLUSH in a calibration) runs
     * right before each, so a write run never pays for the write-back of the run before it. The settle here is a real
     * FLUSH on the device, and it records how many requests the meter had outstanding at that moment (none: it runs
     * between runs, not during one).
     */
    @Test
    void shouldSettleTheDiskBeforeEveryTimedRunOfEitherSide() {
        Uring.assumeAvailable();
        Assumptions.assumeTrue(FioRunner.available(), "fio is not installed (apt-get install fio)");
        try (Scratch scratch = new Scratch(); NativeMemory memory = new NativeMemory(16 * MIB);
             PolledDevice device = IoUringDevice.open(scratch.file("sbs.bin"), 8 * MIB, 4, memory).orThrow()) {
            final IoMeter meter = new IoMeter(device, memory.allocate("b", 4 * MIB), 8 * MIB);
            meter.fill(MIB);
            final IoMeter other = meter.sibling(memory.allocate("c", 4 * MIB));
            final List<Integer> outstandingAtSettle = new ArrayList<>();
            final SideBySide.Target target = new SideBySide.Target(DeviceFile.whole(scratch.file("sbs.bin"), 8 * MIB),
                2, 20_000_000L, () -> {
                    outstandingAtSettle.add(device.outstanding());
                    return meter.flushNs();
                });
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            final PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
            final Optional<SideBySide.Comparison> same = SideBySide.compare(new Cell(IoOp.WRITE, MIB, 2), meter, meter,
                FioRunner.Buffers.SMALL_PAGES, target, 1, out);
            assertTrue(same.isPresent(), log.toString(StandardCharsets.UTF_8));
            assertEquals(List.of(0, 0, 0, 0), outstandingAtSettle, "kvtier and fio, two rounds: four settles");
            outstandingAtSettle.clear();
            final Optional<SideBySide.Comparison> apart = SideBySide.compare(new Cell(IoOp.READ, MIB, 2), other,
                meter, FioRunner.Buffers.SMALL_PAGES, target, 2, out);
            assertTrue(apart.isPresent(), log.toString(StandardCharsets.UTF_8));
            assertEquals(6, outstandingAtSettle.size(), "with a separate profile meter: three settles a round");
            assertEquals(2, apart.get().profile().values().size());
            final String text = log.toString(StandardCharsets.UTF_8);
            assertEquals(4, text.split("settling FLUSH before each", -1).length - 1, text);
            assertEquals(2, text.split("round 2 \\(fio first\\)", -1).length - 1, "fio first in every other round: "
                + text);
            assertFalse(text.contains("round 1 (fio first)"), text);
        }
    }
}
