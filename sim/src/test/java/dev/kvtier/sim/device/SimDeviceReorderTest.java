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
import org.junit.jupiter.api.Test;

/** Seeded reordering ({@code sim.reorder}): completions out of submission order, data moving at delivery. */
class SimDeviceReorderTest {
    private static final int IOS = 64;
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<IoCompletion> completions = new ArrayList<>();

    private SimDevice device(final boolean reorder, final long seed) {
        final SimDevice d = new SimDevice(DeviceProfile.DATACENTER_NVME, 1L << 30, loop, loop, completions::add,
            memory);
        if (reorder) {
            d.reorder(new SeededEntropy(seed));
        }
        return d;
    }

    private static IoRequest io(final long id, final IoOp op, final long file, final ProvRegion r) {
        return new IoRequest(id, op, file, List.of(new IoSegment(r, 0, 4096)));
    }

    /** Submits IOS reads of distinct pages at once; returns the ids in completion order. */
    private List<Long> readsInCompletionOrder(final SimDevice d) {
        final ProvRegion r = memory.allocate("r", 4096);
        loop.at(0, () -> {
            for (int i = 0; i < IOS; i++) {
                d.submit(io(i, IoOp.READ, i * 4096L, r));
            }
        });
        loop.run();
        final List<Long> ids = new ArrayList<>();
        completions.forEach(c -> ids.add(c.ioId()));
        return ids;
    }

    @Test
    void shouldCompleteInSubmissionOrderWithoutReordering() {
        final SimDevice d = device(false, 0);
        final List<Long> ids = readsInCompletionOrder(d);
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i - 1) < ids.get(i), "in order: " + ids);
        }
        assertEquals(0, d.reorderedCompletions());
    }

    @Test
    void shouldCompleteOutOfSubmissionOrderAndCountTheOvertakes() {
        final SimDevice d = device(true, 7);
        final List<Long> ids = readsInCompletionOrder(d);
        assertEquals(IOS, ids.size(), "every I/O completes once");
        int inversions = 0;
        for (int i = 1; i < ids.size(); i++) {
            inversions += ids.get(i - 1) > ids.get(i) ? 1 : 0;
        }
        assertTrue(inversions > 0, "some completion overtook an earlier submission: " + ids);
        assertTrue(d.reorderedCompletions() > 0, "the overtakes are counted");
    }

    @Test
    void shouldLetAReadOvertakeAnOverlappingWriteAndSeeTheOldBytes() {
        // What a load that forgets to wait for a pending write would see on a real queue: among seeds, some read
        // submitted after a write over the same page completes first and reads the page's old content.
        int stale = 0;
        for (long seed = 1; seed <= 32; seed++) {
            final EventLoop l = new EventLoop(1_000_000);
            final ProvenanceMemory m = new ProvenanceMemory();
            final SimDevice d = new SimDevice(DeviceProfile.DATACENTER_NVME, 1L << 30, l, l, c -> {}, m);
            d.reorder(new SeededEntropy(seed));
            final ProvRegion src = m.allocate("src", 4096);
            final ProvRegion dst = m.allocate("dst", 4096);
            m.stamp(src, 0, 4096, 42);
            l.at(0, () -> d.submit(io(1, IoOp.WRITE, 0, src)));
            l.run();
            m.stamp(src, 0, 4096, 43);
            final long t = l.nowNs();
            l.at(t, () -> d.submit(io(2, IoOp.WRITE, 0, src)));
            l.at(t, () -> d.submit(io(3, IoOp.READ, 0, dst)));
            l.run();
            assertEquals(43, d.disk().tagAt(0), "the later write landed in the end");
            stale += dst.runs().tagAt(0) == 42 ? 1 : 0;
        }
        assertTrue(stale > 0 && stale < 32, "some seeds read the old bytes, some the new: " + stale + " of 32");
    }
}
