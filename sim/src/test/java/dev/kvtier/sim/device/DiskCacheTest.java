package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The disk's write-back cache ({@link DeviceProfile#drainBytesPerSec}), shared by the data and the index device: a
 * FLUSH on the index waits for what the data device wrote to drain, and holds the disk's transfers meanwhile.
 */
class DiskCacheTest {
    private static final long MIB = 1 << 20;
    /** 10 us latencies, 1 GB/s read, 2 GB/s write, 1 ms flush, 8 channels; drains at 0.5 GB/s. */
    private static final DeviceProfile DRAINING = new DeviceProfile("t", 10_000, 10_000, 1_000_000,
        1_000_000_000L, 2_000_000_000L, 8, 500_000_000L);
    private static final DeviceProfile NOT_DRAINING = new DeviceProfile("t", 10_000, 10_000, 1_000_000,
        1_000_000_000L, 2_000_000_000L, 8);
    /** The same cache, holding what it is given for 2 s before writing it back on its own. */
    private static final DeviceProfile HOLDING = new DeviceProfile("t", 10_000, 10_000, 1_000_000, 1_000_000_000L,
        2_000_000_000L, 8, 500_000_000L, 2_000_000_000L);
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final Map<Long, Long> doneAt = new HashMap<>();

    private final class Disk {
        final SimDevice data;
        final SimMetaDevice index;

        Disk(final DeviceProfile p) {
            final DiskCache cache = new DiskCache(p);
            data = new SimDevice(p, 1L << 30, loop, loop, this::done, memory, FaultPlan.NONE, null, cache);
            index = new SimMetaDevice(p, 64 * 4096, loop, loop, this::done, memory, FaultPlan.NONE, null, cache);
        }

        private void done(final IoCompletion c) {
            doneAt.put(c.ioId(), loop.nowNs());
        }
    }

    private static IoRequest io(final long id, final IoOp op, final long file, final ProvRegion r, final long len) {
        return new IoRequest(id, op, file, op == IoOp.FLUSH ? List.of() : List.of(new IoSegment(r, 0, len)));
    }

    /** 64 MiB written on the data device at t=0, an index FLUSH at 40 ms, a 1 MiB data read at 41 ms. */
    private void writeFlushRead(final Disk d) {
        final ProvRegion r = memory.allocate("r", 64 * MIB);
        loop.at(0, () -> d.data.submit(io(1, IoOp.WRITE, 0, r, 64 * MIB)));
        loop.at(40_000_000, () -> d.index.submit(io(2, IoOp.FLUSH, 0, null, 0)));
        loop.at(41_000_000, () -> d.data.submit(io(3, IoOp.READ, 0, r, MIB)));
        loop.run();
    }

    @Test
    void shouldMakeAFlushOnTheIndexWaitForTheDataDevicesWritesToDrain() {
        writeFlushRead(new Disk(DRAINING));
        final long written = 10_000 + DeviceProfile.transferNs(64 * MIB, 2_000_000_000L);
        assertEquals(written, doneAt.get(1L), "the write completes at the cache's speed");
        assertEquals(written + DeviceProfile.transferNs(64 * MIB, 500_000_000L), doneAt.get(2L),
            "the flush completes when the 64 MiB have drained at 0.5 GB/s (about 134 ms after the write)");
        assertEquals(doneAt.get(2L) + DeviceProfile.transferNs(MIB, 1_000_000_000L), doneAt.get(3L),
            "a read submitted during the flush transfers after it");
    }

    @Test
    void shouldMakeAFlushForceOutWhatADelayedCacheStillHolds() {
        writeFlushRead(new Disk(HOLDING));
        assertEquals(40_000_000L + 1_000_000L + DeviceProfile.transferNs(64 * MIB, 500_000_000L), doneAt.get(2L),
            "nothing drained on its own within 2 s: the flush writes all 64 MiB back at 0.5 GB/s after its latency");
        assertEquals(doneAt.get(2L) + DeviceProfile.transferNs(MIB, 1_000_000_000L), doneAt.get(3L),
            "a read submitted during the flush transfers after it");
    }

    @Test
    void shouldLeaveEveryTimingAsItWasWithoutADrainRate() {
        writeFlushRead(new Disk(NOT_DRAINING));
        assertEquals(40_000_000L + 1_000_000L, doneAt.get(2L), "the flush costs its latency");
        assertEquals(41_000_000L + 10_000 + DeviceProfile.transferNs(MIB, 1_000_000_000L), doneAt.get(3L));
    }

    @Test
    void shouldCostOnlyTheLatencyOnceTheCacheHasDrained() {
        final Disk d = new Disk(DRAINING);
        final ProvRegion r = memory.allocate("r", MIB);
        loop.at(0, () -> d.data.submit(io(1, IoOp.WRITE, 0, r, MIB)));
        loop.at(500_000_000, () -> d.index.submit(io(2, IoOp.FLUSH, 0, null, 0)));
        loop.run();
        assertEquals(500_000_000L + 1_000_000L, doneAt.get(2L), "1 MiB drained long before the flush");
    }

    @Test
    void shouldForgetTheCacheAtACrash() {
        final Disk d = new Disk(DRAINING);
        final ProvRegion r = memory.allocate("r", 64 * MIB);
        loop.at(0, () -> d.data.submit(io(1, IoOp.WRITE, 0, r, 64 * MIB)));
        loop.at(1_000_000, () -> {
            d.data.crash(new SeededEntropy(1));
            d.index.submit(io(2, IoOp.FLUSH, 0, null, 0));
        });
        loop.run();
        assertEquals(2_000_000L, doneAt.get(2L), "the restarted disk has nothing left to drain");
    }

    @Test
    void shouldRefuseANegativeDrainRate() {
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("t", 1, 1, 1, 1, 1, 1, -1));
    }
}
