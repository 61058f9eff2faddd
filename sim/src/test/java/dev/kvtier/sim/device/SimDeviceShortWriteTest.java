package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Short writes (FaultPlan's shortWritesPerMillion): the write completes with a count below its length, exactly its
 * leading pages land and only they can become durable; the count is drawn from the seed, and a plan without the kind
 * never writes short.
 */
class SimDeviceShortWriteTest {
    private static final long P = 4096;
    private static final long CAPACITY = 256 * P;
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<IoCompletion> completions = new ArrayList<>();

    private SimDevice device(final FaultPlan plan, final long seed) {
        return new SimDevice(DeviceProfile.DATACENTER_NVME, CAPACITY, loop, loop, completions::add, memory, plan,
            new SeededEntropy(seed).child("faults"));
    }

    private static FaultPlan shortAlways() {
        return new FaultPlan(0, 0, 0, 0, 1, Long.MAX_VALUE).withShortWritesPerMillion(FaultPlan.MILLION);
    }

    private void write(final SimDevice d, final long id, final long file, final long pages, final long tag) {
        final ProvRegion src = memory.allocate("src" + id, pages * P);
        memory.stamp(src, 0, pages * P, tag);
        loop.at(loop.nowNs(), () -> d.submit(new IoRequest(id, IoOp.WRITE, file,
            List.of(new IoSegment(src, 0, src.sizeBytes())))));
        loop.run();
    }

    @Test
    void shouldLandOnlyTheLeadingPagesItCounts() {
        final SimDevice d = device(shortAlways(), 3);
        write(d, 1, 16 * P, 8, 5);
        assertEquals(1, completions.size());
        final long written = completions.getFirst().result();
        assertTrue(written >= P && written < 8 * P && written % P == 0, "a short count of whole pages: " + written);
        assertEquals(1, d.injectedShortWrites());
        for (long i = 0; i < 8; i++) {
            final long expected = i * P < written ? 5 : 0;
            assertEquals(expected, d.disk().tagAt(16 * P + i * P), "page " + i + " of a write of " + written + " B");
        }
        assertEquals(written, d.bytesWritten());
    }

    @Test
    void shouldKeepDurableOnlyWhatLandedAtACrash() {
        int kept = 0;
        for (long seed = 0; seed < 20; seed++) {
            completions.clear();
            final SimDevice d = device(shortAlways().withVolatileWriteCache(true), 4);
            write(d, 1, 0, 8, 9);
            final long written = completions.getFirst().result();
            d.crash(new SeededEntropy(seed));
            for (long at = 0; at < 8 * P; at += P) {
                if (at >= written) {
                    assertEquals(0, d.durable().tagAt(at), "page at " + at + " past the short count " + written);
                } else if (d.durable().tagAt(at) == 9) {
                    kept++;
                }
            }
        }
        assertTrue(kept > 0, "a crash keeps some of the pages that landed");
    }

    @Test
    void shouldDrawTheCountFromTheSeedAndNeverShortenAOnePageWrite() {
        final Set<Long> counts = new TreeSet<>();
        for (long seed = 0; seed < 30; seed++) {
            completions.clear();
            write(device(shortAlways(), seed), 1, 0, 8, 3);
            counts.add(completions.getFirst().result());
        }
        assertTrue(counts.size() > 3, "counts vary with the seed: " + counts);
        completions.clear();
        final SimDevice one = device(shortAlways(), 1);
        write(one, 2, 0, 1, 3);
        assertEquals(List.of(new IoCompletion(2, P)), completions);
        assertEquals(0, one.injectedShortWrites());
    }

    @Test
    void shouldNeverWriteShortWithoutTheKind() {
        final SimDevice d = device(new FaultPlan(0, 0, 0, 0, 1, Long.MAX_VALUE).withCorruptionsPerMillion(1), 2);
        write(d, 1, 0, 8, 3);
        assertEquals(List.of(new IoCompletion(1, 8 * P)), completions);
        assertEquals(0, d.injectedShortWrites());
    }
}
