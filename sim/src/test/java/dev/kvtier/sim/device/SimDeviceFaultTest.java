package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import dev.kvtier.sim.memory.RunMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Silent corruption and misdirected writes: the write completes OK, and exactly the modelled damage is done. */
class SimDeviceFaultTest {
    private static final long P = 4096;
    private static final long CAPACITY = 256 * P;
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<IoCompletion> completions = new ArrayList<>();

    private SimDevice device(final FaultPlan plan, final long seed, final long capacity) {
        return new SimDevice(DeviceProfile.DATACENTER_NVME, capacity, loop, loop, completions::add, memory, plan,
            new SeededEntropy(seed).child("faults"));
    }

    private static FaultPlan always() {
        return new FaultPlan(0, 0, 0, 0, 1, Long.MAX_VALUE);
    }

    private ProvRegion stamped(final long pages, final long tag) {
        final ProvRegion r = memory.allocate("src" + tag, pages * P);
        memory.stamp(r, 0, pages * P, tag);
        return r;
    }

    private void write(final SimDevice d, final long id, final long file, final ProvRegion src) {
        loop.at(loop.nowNs(), () -> d.submit(new IoRequest(id, IoOp.WRITE, file,
            List.of(new IoSegment(src, 0, src.sizeBytes())))));
        loop.run();
    }

    @Test
    void shouldCorruptExactlyOnePageOfACompletedWrite() {
        final SimDevice d = device(always().withCorruptionsPerMillion(FaultPlan.MILLION), 1, CAPACITY);
        final ProvRegion src = stamped(8, 5);
        write(d, 1, 16 * P, src);
        assertEquals(List.of(new IoCompletion(1, 8 * P)), completions, "the write still completes OK");
        assertEquals(1, d.injectedCorruptions());
        assertEquals(1, d.corruptedRanges().size());
        final FileRange bad = d.corruptedRanges().getFirst();
        assertEquals(P, bad.lengthBytes());
        int differing = 0;
        for (long i = 0; i < 8; i++) {
            final long at = 16 * P + i * P;
            final boolean same = d.disk().contentHash(at, P) == src.runs().contentHash(i * P, P);
            if (!same) {
                differing++;
                assertEquals(bad.offset(), at, "the recorded page is the one that differs");
                assertTrue(d.disk().tagAt(at) < 0, "a corrupt tag of its own");
            }
        }
        assertEquals(1, differing, "exactly one page holds wrong content");
        assertEquals(0, d.disk().tagAt(15 * P), "nothing outside the write changed");
        assertEquals(0, d.disk().tagAt(24 * P));
    }

    @Test
    void shouldCorruptDeterministicallyFromTheSeedAndAtRateOnly() {
        final Set<Long> pages = new TreeSet<>();
        for (long seed = 0; seed < 40; seed++) {
            final SimDevice d = device(always().withCorruptionsPerMillion(FaultPlan.MILLION), seed, CAPACITY);
            write(d, 1, 0, stamped(8, 5));
            final SimDevice again = device(always().withCorruptionsPerMillion(FaultPlan.MILLION), seed, CAPACITY);
            write(again, 1, 0, stamped(8, 5));
            assertEquals(d.corruptedRanges(), again.corruptedRanges(), "seed " + seed);
            pages.add(d.corruptedRanges().getFirst().offset() / P);
        }
        assertEquals(new TreeSet<>(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L)), pages, "the page is drawn");
        final SimDevice half = device(always().withCorruptionsPerMillion(FaultPlan.MILLION / 2), 3, CAPACITY);
        for (int i = 0; i < 200; i++) {
            write(half, i, (i % 100) * P, stamped(1, 1000 + i));
        }
        assertTrue(half.injectedCorruptions() > 60 && half.injectedCorruptions() < 140, "about half: "
            + half.injectedCorruptions());
        assertEquals(half.injectedCorruptions(), half.corruptedRanges().size());
    }

    @Test
    void shouldLandAMisdirectedWriteElsewhereAndLeaveTheIntendedRangeAlone() {
        final SimDevice d = device(always().withMisdirectsPerMillion(FaultPlan.MILLION), 2, CAPACITY);
        d.disk().put(0, CAPACITY, 1, 0);
        final RunMap before = new RunMap();
        before.put(0, CAPACITY, 1, 0);
        final ProvRegion src = stamped(4, 7);
        write(d, 9, 40 * P, src);
        assertEquals(List.of(new IoCompletion(9, 4 * P)), completions, "completes OK");
        assertEquals(1, d.injectedMisdirects());
        final MisdirectedWrite m = d.misdirectedRanges().getFirst();
        assertEquals(new MisdirectedWrite(9, 40 * P, m.actualOffset(), 4 * P), m);
        assertNotEquals(40 * P, m.actualOffset());
        assertEquals(before.contentHash(40 * P, 4 * P), d.disk().contentHash(40 * P, 4 * P),
            "the intended range keeps its old content");
        assertEquals(src.runs().contentHash(0, 4 * P), d.disk().contentHash(m.actualOffset(), 4 * P),
            "the data landed at the actual offset");
        assertEquals(before.contentHash(0, m.actualOffset()), d.disk().contentHash(0, m.actualOffset()));
        final long end = m.actualOffset() + 4 * P;
        assertEquals(before.contentHash(end, CAPACITY - end), d.disk().contentHash(end, CAPACITY - end),
            "nothing else changed");
    }

    @Test
    void shouldDrawMisdirectsUniformlyAmongFittingNonOverlappingOffsets() {
        final Set<Long> single = new TreeSet<>();
        final Set<Long> triple = new TreeSet<>();
        for (long seed = 0; seed < 300; seed++) {
            final SimDevice a = device(always().withMisdirectsPerMillion(FaultPlan.MILLION), seed, 16 * P);
            write(a, 1, 5 * P, stamped(1, 3));
            single.add(a.misdirectedRanges().getFirst().actualOffset() / P);
            final SimDevice b = device(always().withMisdirectsPerMillion(FaultPlan.MILLION), seed, 16 * P);
            write(b, 1, 6 * P, stamped(3, 3));
            triple.add(b.misdirectedRanges().getFirst().actualOffset() / P);
        }
        assertEquals(new TreeSet<>(List.of(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L)),
            single, "every other page, never the intended one");
        assertEquals(new TreeSet<>(List.of(0L, 1L, 2L, 3L, 9L, 10L, 11L, 12L, 13L)), triple,
            "the whole write fits and never overlaps pages 6..8");
    }

    @Test
    void shouldNotMisdirectWhenNoOtherOffsetFits() {
        final SimDevice d = device(always().withMisdirectsPerMillion(FaultPlan.MILLION), 4, 16 * P);
        final ProvRegion src = stamped(9, 8);
        write(d, 1, 0, src);
        assertEquals(0, d.injectedMisdirects());
        assertEquals(src.runs().contentHash(0, 9 * P), d.disk().contentHash(0, 9 * P));
    }

    @Test
    void shouldRecordACorruptPageWhereAMisdirectedWriteLanded() {
        final SimDevice d = device(always().withCorruptionsPerMillion(FaultPlan.MILLION)
            .withMisdirectsPerMillion(FaultPlan.MILLION), 6, CAPACITY);
        write(d, 1, 100 * P, stamped(4, 2));
        final MisdirectedWrite m = d.misdirectedRanges().getFirst();
        final FileRange bad = d.corruptedRanges().getFirst();
        assertTrue(bad.offset() >= m.actualOffset() && bad.end() <= m.actualOffset() + 4 * P, bad + " in " + m);
        assertTrue(d.disk().tagAt(bad.offset()) < 0);
        assertEquals(0, d.disk().tagAt(100 * P), "the intended range was never written");
    }

    @Test
    void shouldStopCorruptingAtUntil() {
        final SimDevice d = device(new FaultPlan(0, 0, 0, 0, 1, 1).withCorruptionsPerMillion(FaultPlan.MILLION)
            .withMisdirectsPerMillion(FaultPlan.MILLION), 1, CAPACITY);
        loop.at(10, () -> {});
        loop.run();
        final ProvRegion src = stamped(4, 2);
        write(d, 1, 0, src);
        assertEquals(0, d.injectedCorruptions() + d.injectedMisdirects());
        assertEquals(src.runs().contentHash(0, 4 * P), d.disk().contentHash(0, 4 * P));
    }
}
