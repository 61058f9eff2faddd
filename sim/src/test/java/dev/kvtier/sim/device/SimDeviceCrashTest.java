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
import dev.kvtier.sim.memory.RunMap;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The volatile write cache, FLUSH coverage and power loss of the provenance device. */
class SimDeviceCrashTest {
    private static final long P = 4096;
    private static final int SECTOR = 512;
    private static final long CAPACITY = 1024 * P;
    private static final FaultPlan CACHED = FaultPlan.NONE.withVolatileWriteCache(true);
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<IoCompletion> completions = new ArrayList<>();
    private final TreeMap<Long, Long> doneAt = new TreeMap<>();

    private SimDevice device(final DeviceProfile profile, final FaultPlan plan) {
        return new SimDevice(profile, CAPACITY, loop, loop, c -> {
            completions.add(c);
            doneAt.put(c.ioId(), loop.nowNs());
        }, memory, plan, new SeededEntropy(1).child("faults"));
    }

    private ProvRegion stamped(final long pages, final long tag) {
        final ProvRegion r = memory.allocate("src" + tag, pages * P);
        memory.stamp(r, 0, pages * P, tag);
        return r;
    }

    private static IoRequest write(final long id, final long file, final ProvRegion src) {
        return new IoRequest(id, IoOp.WRITE, file, List.of(new IoSegment(src, 0, src.sizeBytes())));
    }

    private static IoRequest flush(final long id) {
        return new IoRequest(id, IoOp.FLUSH, 0, List.of());
    }

    /** Sectors of a page holding {@code tag} at their own file-relative position, from {@code base}. */
    private static int sectorsOf(final RunMap map, final long page, final long base, final long tag) {
        int n = 0;
        for (long s = page; s < page + P; s += SECTOR) {
            final RunMap expected = new RunMap();
            expected.put(s, SECTOR, tag, s - base);
            if (map.contentHash(s, SECTOR) == expected.contentHash(s, SECTOR)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void shouldWriteLoseOrTearUnflushedPagesAndKeepFlushedWrites() {
        final long[] seen = new long[3];
        for (long seed = 0; seed < 40; seed++) {
            final SimDevice d = device(DeviceProfile.DATACENTER_NVME, CACHED);
            final ProvRegion kept = stamped(4, 100);
            final ProvRegion old = stamped(16, 1);
            final ProvRegion fresh = stamped(16, 2);
            loop.at(loop.nowNs(), () -> d.submit(write(1, 0, kept)));
            loop.at(loop.nowNs() + 10_000_000, () -> d.submit(flush(2)));
            loop.at(loop.nowNs() + 20_000_000, () -> d.submit(write(3, 64 * P, old)));
            loop.at(loop.nowNs() + 30_000_000, () -> d.submit(flush(4)));
            loop.at(loop.nowNs() + 40_000_000, () -> d.submit(write(5, 64 * P, fresh)));
            loop.run();
            assertEquals(1, d.unflushedWrites());
            final CrashOutcome o = d.crash(new SeededEntropy(seed));
            assertEquals(1, o.writesAffected());
            assertEquals(16, o.pages());
            assertEquals(kept.runs().contentHash(0, 4 * P), d.disk().contentHash(0, 4 * P),
                "a flushed write survives every crash");
            final long[] observed = new long[3];
            for (long page = 64 * P; page < 80 * P; page += P) {
                final int news = sectorsOf(d.disk(), page, 64 * P, 2);
                final int olds = sectorsOf(d.disk(), page, 64 * P, 1);
                assertEquals(P / SECTOR, news + olds, "every sector holds the new or the old write");
                observed[news == P / SECTOR ? 0 : news == 0 ? 1 : 2]++;
            }
            assertEquals(o.pagesWritten(), observed[0], "seed " + seed);
            assertEquals(o.pagesLost(), observed[1], "seed " + seed);
            assertEquals(o.pagesTorn(), observed[2], "seed " + seed);
            assertEquals(d.durable().contentHash(0, CAPACITY), d.disk().contentHash(0, CAPACITY),
                "reads now see the durable image");
            for (int k = 0; k < 3; k++) {
                seen[k] += observed[k];
            }
        }
        assertTrue(seen[0] > 100 && seen[1] > 100 && seen[2] > 100, "all three outcomes, about a third each: "
            + seen[0] + " written, " + seen[1] + " lost, " + seen[2] + " torn");
    }

    @Test
    void shouldCrashTheSameWayForTheSameSeed() {
        final long[] hashes = new long[2];
        for (int run = 0; run < 2; run++) {
            final SimDevice d = device(DeviceProfile.DATACENTER_NVME, CACHED);
            final ProvRegion a = stamped(32, 10);
            loop.at(loop.nowNs(), () -> d.submit(write(1, 0, a)));
            loop.run();
            d.crash(new SeededEntropy(77));
            hashes[run] = d.disk().contentHash(0, CAPACITY);
        }
        assertEquals(hashes[0], hashes[1]);
    }

    @Test
    void shouldFlushOnlyWritesCompletedBeforeTheFlushWasSubmitted() {
        final DeviceProfile p = new DeviceProfile("t", 10_000, 100_000, 500_000, 1_000_000_000, 1_000_000_000, 4);
        final SimDevice d = device(p, CACHED);
        final ProvRegion w1 = stamped(1, 1);
        final ProvRegion w2 = stamped(1, 2);
        loop.at(0, () -> d.submit(write(1, 0, w1)));
        loop.at(200_000, () -> d.submit(write(2, 8 * P, w2)));
        loop.at(201_000, () -> d.submit(flush(3)));
        loop.run();
        assertTrue(doneAt.get(1L) < 200_000 && doneAt.get(2L) < doneAt.get(3L),
            "w1 completed before the flush was submitted, w2 after, but before the flush completed: " + doneAt);
        assertEquals(1, d.durable().tagAt(0), "w1 is durable");
        assertEquals(0, d.durable().tagAt(8 * P), "w2 is not, though it completed before the flush did");
        assertEquals(2, d.disk().tagAt(8 * P), "reads see w2");
        assertEquals(1, d.unflushedWrites());
        loop.at(loop.nowNs(), () -> d.submit(flush(4)));
        loop.run();
        assertEquals(2, d.durable().tagAt(8 * P), "a later flush covers it");
        assertEquals(0, d.unflushedWrites());
    }

    @Test
    void shouldDropInFlightCompletionsAtACrashAndRestartIdle() {
        final DeviceProfile p = new DeviceProfile("t", 100_000, 100_000, 100_000, 1_000_000_000, 1_000_000_000, 2);
        final SimDevice d = device(p, FaultPlan.NONE);
        final ProvRegion done = stamped(2, 1);
        final ProvRegion busy = stamped(8, 2);
        loop.at(0, () -> d.submit(write(1, 0, done)));
        loop.run();
        final long t = loop.nowNs();
        loop.at(t, () -> {
            for (int i = 0; i < 6; i++) {
                d.submit(write(10 + i, (16 + 8L * i) * P, busy));
            }
        });
        loop.at(t + 50_000, () -> {
            final CrashOutcome o = d.crash(new SeededEntropy(5));
            assertEquals(6, o.writesAffected(), "every in-flight write");
            assertEquals(48, o.pages());
            d.submit(new IoRequest(99, IoOp.READ, 0, List.of(new IoSegment(memory.allocate("dst", 2 * P), 0,
                2 * P))));
        });
        loop.run();
        assertEquals(List.of(1L, 99L), completions.stream().map(IoCompletion::ioId).toList(),
            "no completion of an I/O in flight at the crash");
        assertEquals(t + 50_000 + 100_000 + 8192, doneAt.get(99L), "channels and path restart idle");
        assertEquals(done.runs().contentHash(0, 2 * P), d.disk().contentHash(0, 2 * P),
            "without the cache, a completed write is durable");
        assertEquals(1, d.writes(), "the writes in flight at the crash never completed");
    }

    @Test
    void shouldAcceptNewWritesAfterACrash() {
        final SimDevice d = device(DeviceProfile.DATACENTER_NVME, CACHED);
        final ProvRegion a = stamped(4, 1);
        loop.at(0, () -> d.submit(write(1, 0, a)));
        loop.run();
        d.crash(new SeededEntropy(3));
        final ProvRegion b = stamped(4, 2);
        loop.at(loop.nowNs(), () -> d.submit(write(2, 0, b)));
        loop.at(loop.nowNs() + 1_000_000, () -> d.submit(flush(3)));
        loop.run();
        assertEquals(b.runs().contentHash(0, 4 * P), d.durable().contentHash(0, 4 * P));
        final CrashOutcome o = d.crash(new SeededEntropy(4));
        assertEquals(new CrashOutcome(0, 0, 0, 0), o, "nothing pending after the flush");
        assertEquals(b.runs().contentHash(0, 4 * P), d.disk().contentHash(0, 4 * P));
        assertEquals(2, d.crashes());
    }

    @Test
    void shouldMakeEachWriteDurableWithItsOwnContentWhenContentMapsAreReused() {
        final SimDevice d = device(DeviceProfile.DATACENTER_NVME, CACHED);
        final List<ProvRegion> sources = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            // Each source holds its tag on its first k + 1 pages and nothing after: a reused content map that kept
            // an earlier write's runs, or lost this one's before it was persisted, would show here.
            final ProvRegion r = memory.allocate("mixed" + k, 8 * P);
            memory.stamp(r, 0, (k + 1) * P, 20 + k);
            sources.add(r);
        }
        for (int k = 0; k < 6; k++) {
            final long id = 10L * k;
            final long at = 16 * P * k;
            final ProvRegion src = sources.get(k);
            loop.at(loop.nowNs() + 1_000_000, () -> d.submit(write(id + 1, at, src)));
            if (k % 2 == 1) {
                loop.at(loop.nowNs() + 2_000_000, () -> d.submit(flush(id + 2)));
            }
            loop.run();
        }
        d.crash(new SeededEntropy(9)); // nothing pending: every write was flushed
        for (int k = 0; k < 6; k++) {
            final long at = 16 * P * k;
            assertEquals(sources.get(k).runs().contentHash(0, 8 * P), d.disk().contentHash(at, 8 * P), "write " + k);
            assertEquals(20 + k, d.durable().tagAt(at + k * P));
            assertEquals(0, d.durable().tagAt(at + (k + 1) * P), "never written past its stamped pages");
        }
    }
}
