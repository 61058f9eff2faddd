package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.dynatrace.hash4j.hashing.HashStream64;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the device's timings, results and resulting disk provenance for a scripted mix of I/Os, with and without
 * the original fault kinds (EIO, spikes, slowdown). The pinned values were taken from the device as it was before
 * corruption, misdirects and the volatile write cache were added: with none of those configured the device must
 * behave bit for bit as it did, so existing run digests do not move.
 */
class SimDeviceRegressionTest {
    private static final long CAPACITY = 64L << 20;

    /** Runs 300 scripted I/Os and fingerprints every completion (time, id, result) and the final disk. */
    private static long fingerprint(final FaultPlan plan, final long seed) {
        final EventLoop loop = new EventLoop(1_000_000);
        final ProvenanceMemory memory = new ProvenanceMemory();
        final HashStream64 h = Hashing.xxh3_64().hashStream();
        final SimDevice d = new SimDevice(DeviceProfile.CI_EXT4, CAPACITY, loop, loop, c -> {
            h.putLong(loop.nowNs()).putLong(c.ioId()).putLong(c.result());
        }, memory, plan, new SeededEntropy(seed).child("faults"));
        final ProvRegion src = memory.allocate("src", 1 << 20);
        final ProvRegion dst = memory.allocate("dst", 1 << 20);
        final SeededEntropy script = new SeededEntropy(seed).child("script");
        for (int i = 0; i < 300; i++) {
            final long id = i;
            final long at = i * 40_000L + script.nextInt(30_000);
            final int kind = script.nextInt(10);
            final long pages = 1L + script.nextInt(256);
            final long file = script.nextInt((int) ((CAPACITY >> 12) - pages)) * 4096L;
            final long tag = i + 1L;
            loop.at(at, () -> {
                if (kind < 5) {
                    memory.stamp(src, 0, pages * 4096, tag);
                    d.submit(new IoRequest(id, IoOp.WRITE, file, List.of(new IoSegment(src, 0, pages * 4096))));
                } else if (kind < 9) {
                    d.submit(new IoRequest(id, IoOp.READ, file, List.of(new IoSegment(dst, 0, pages * 4096))));
                } else {
                    d.submit(new IoRequest(id, IoOp.FLUSH, 0, List.of()));
                }
            });
        }
        loop.run();
        for (long off = 0; off < CAPACITY; off += 4096) {
            h.putLong(d.disk().tagAt(off));
        }
        h.putLong(d.disk().runCount()).putLong(d.injectedErrors()).putLong(d.injectedSpikes());
        h.putLong(d.reads()).putLong(d.writes()).putLong(d.flushes()).putLong(d.bytesRead()).putLong(d.bytesWritten());
        return h.getAsLong();
    }

    @Test
    void shouldKeepTheFaultFreeDeviceBitForBit() {
        assertEquals(PINNED_CLEAN, fingerprint(FaultPlan.NONE, 11));
    }

    @Test
    void shouldKeepEioSpikesAndSlowdownBitForBit() {
        final FaultPlan plan = new FaultPlan(100_000, 150_000, 200_000, 3_000_000, 2, 6_000_000L);
        assertEquals(PINNED_FAULTY, fingerprint(plan, 11));
    }

    @Test
    void shouldCostNothingForTheVolatileWriteCache() {
        assertEquals(PINNED_CLEAN, fingerprint(FaultPlan.NONE.withVolatileWriteCache(true), 11),
            "the cache changes durability only: timings, results and what reads see are the same");
        final FaultPlan plan = new FaultPlan(100_000, 150_000, 200_000, 3_000_000, 2, 6_000_000L);
        assertEquals(PINNED_FAULTY, fingerprint(plan.withVolatileWriteCache(true), 11));
    }

    private static final long PINNED_CLEAN = 7094115728293266150L;
    private static final long PINNED_FAULTY = 4960395956932026070L;
}
