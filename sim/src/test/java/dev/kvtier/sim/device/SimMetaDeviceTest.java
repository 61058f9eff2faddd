package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The byte-backed metadata device: round trips, the full-disk fault, the write cache and crashes. */
class SimMetaDeviceTest {
    private static final int P = 4096;
    private static final int SECTOR = 512;
    private static final long CAPACITY = 64L * P;
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<IoCompletion> completions = new ArrayList<>();
    private final List<Long> doneAt = new ArrayList<>();

    private SimMetaDevice device(final FaultPlan plan) {
        return new SimMetaDevice(DeviceProfile.DATACENTER_NVME, CAPACITY, loop, loop, c -> {
            completions.add(c);
            doneAt.add(loop.nowNs());
        }, memory, plan);
    }

    private static byte[] pattern(final int length, final int seed) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i * 7 + (i >> 9));
        }
        return b;
    }

    private ProvRegion holding(final byte[] content) {
        final ProvRegion r = memory.allocate("meta", content.length);
        memory.write(r, 0, content, 0, content.length);
        return r;
    }

    private static IoRequest io(final long id, final IoOp op, final long file, final ProvRegion r) {
        return new IoRequest(id, op, file, op == IoOp.FLUSH ? List.of() : List.of(new IoSegment(r, 0, r.sizeBytes())));
    }

    private void submitNow(final SimMetaDevice d, final IoRequest r) {
        loop.at(loop.nowNs(), () -> d.submit(r));
        loop.run();
    }

    @Test
    void shouldRoundTripBytesAndNeverCompleteSynchronously() {
        final SimMetaDevice d = device(FaultPlan.NONE);
        final byte[] content = pattern(2 * P, 1);
        final ProvRegion src = holding(content);
        loop.at(0, () -> {
            d.submit(io(1, IoOp.WRITE, 3 * P, src));
            assertTrue(completions.isEmpty(), "no synchronous completion");
        });
        loop.run();
        assertEquals(List.of(new IoCompletion(1, 2 * P)), completions);
        assertEquals(List.of(30_000L + DeviceProfile.transferNs(2 * P, 4_000_000_000L)), doneAt,
            "SimDevice's timing: latency, then transfer");
        assertArrayEquals(content, d.bytes(3 * P, 2 * P));
        final ProvRegion dst = memory.allocate("dst", 3 * P);
        submitNow(d, new IoRequest(2, IoOp.READ, 2 * P, List.of(new IoSegment(dst, 0, 3 * P))));
        final byte[] back = new byte[3 * P];
        memory.read(dst, 0, back, 0, 3 * P);
        assertArrayEquals(new byte[P], Arrays.copyOf(back, P), "a never-written page reads as zeros");
        assertArrayEquals(content, Arrays.copyOfRange(back, P, 3 * P));
        assertEquals(new IoCompletion(2, 3 * P), completions.getLast());
    }

    @Test
    void shouldAnswerEnospcAfterNWritesUntilFaultsStop() {
        final long until = 10_000_000;
        final SimMetaDevice d = device(new FaultPlan(0, 0, 0, 0, 1, until).withMetaFullAfterWrites(2));
        for (int i = 0; i < 4; i++) {
            submitNow(d, io(i, IoOp.WRITE, (long) i * P, holding(pattern(P, i + 1))));
        }
        assertEquals(List.of(new IoCompletion(0, P), new IoCompletion(1, P), new IoCompletion(2, -28),
            new IoCompletion(3, -SimMetaDevice.ENOSPC)), completions);
        assertEquals(2, d.injectedMetaFull());
        assertArrayEquals(new byte[2 * P], d.bytes(2L * P, 2 * P), "a refused write writes nothing");
        assertArrayEquals(pattern(P, 2), d.bytes(P, P));
        loop.at(until, () -> d.submit(io(4, IoOp.WRITE, 2L * P, holding(pattern(P, 9)))));
        loop.run();
        assertEquals(new IoCompletion(4, P), completions.getLast(), "space again once faults stop");
        assertArrayEquals(pattern(P, 9), d.bytes(2L * P, P));
        assertEquals(2, d.injectedMetaFull());
    }

    @Test
    void shouldKeepFlushedBytesAndWriteLoseOrTearUnflushedOnesAtACrash() {
        final int[] seen = new int[3];
        for (long seed = 0; seed < 30; seed++) {
            final SimMetaDevice d = device(FaultPlan.NONE.withCrashAtEvent(1_000_000));
            final byte[] kept = pattern(2 * P, 5);
            final byte[] old = pattern(8 * P, 6);
            final byte[] fresh = pattern(8 * P, 7);
            submitNow(d, io(1, IoOp.WRITE, 0, holding(kept)));
            submitNow(d, io(2, IoOp.WRITE, 16L * P, holding(old)));
            submitNow(d, io(3, IoOp.FLUSH, 0, null));
            submitNow(d, io(4, IoOp.WRITE, 16L * P, holding(fresh)));
            assertArrayEquals(fresh, d.bytes(16L * P, 8 * P), "reads see the unflushed write");
            final CrashOutcome o = d.crash(new SeededEntropy(seed));
            assertEquals(1, o.writesAffected());
            assertArrayEquals(kept, d.bytes(0, 2 * P), "flushed bytes survive a crash");
            final int[] observed = new int[3];
            for (int page = 0; page < 8; page++) {
                int news = 0;
                for (int s = 0; s < P / SECTOR; s++) {
                    final int at = page * P + s * SECTOR;
                    final byte[] now = d.bytes(16L * P + at, SECTOR);
                    final boolean isNew = Arrays.equals(now, Arrays.copyOfRange(fresh, at, at + SECTOR));
                    assertTrue(isNew || Arrays.equals(now, Arrays.copyOfRange(old, at, at + SECTOR)),
                        "a sector holds the new or the old bytes");
                    news += isNew ? 1 : 0;
                }
                observed[news == P / SECTOR ? 0 : news == 0 ? 1 : 2]++;
            }
            assertEquals(o.pagesWritten(), observed[0]);
            assertEquals(o.pagesLost(), observed[1]);
            assertEquals(o.pagesTorn(), observed[2]);
            assertArrayEquals(d.durableBytes(0, (int) CAPACITY), d.bytes(0, (int) CAPACITY));
            for (int k = 0; k < 3; k++) {
                seen[k] += observed[k];
            }
        }
        assertTrue(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, Arrays.toString(seen));
    }

    @Test
    void shouldIgnoreCompletionsOfIoInFlightAtACrash() {
        final SimMetaDevice d = device(FaultPlan.NONE.withVolatileWriteCache(true));
        final ProvRegion src = holding(pattern(P, 3));
        loop.at(0, () -> d.submit(io(1, IoOp.WRITE, 0, src)));
        loop.at(1_000, () -> d.crash(new SeededEntropy(1)));
        loop.at(2_000, () -> d.submit(io(2, IoOp.FLUSH, 0, null)));
        loop.run();
        assertEquals(List.of(new IoCompletion(2, 0)), completions, "the write's completion never arrives");
        assertEquals(List.of(2_000L + 50_000L), doneAt, "the device restarted idle");
        assertEquals(0, d.unflushedWrites());
    }

    @Test
    void shouldRejectABadCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new SimMetaDevice(DeviceProfile.DATACENTER_NVME, 4097,
            loop, loop, c -> {}, memory));
        assertThrows(IllegalArgumentException.class, () -> new SimMetaDevice(DeviceProfile.DATACENTER_NVME,
            SimMetaDevice.MAX_CAPACITY_BYTES + P, loop, loop, c -> {}, memory));
    }

    @Test
    void shouldShowALostWriteToReadsButKeepTheMediasBytesAtACrash() {
        final FaultPlan plan = new FaultPlan(0, 0, 0, 0, 1, Long.MAX_VALUE).withIndexLostWritesPerMillion(
            FaultPlan.MILLION).withCrashAtEvent(1_000_000);
        final SimMetaDevice d = new SimMetaDevice(DeviceProfile.DATACENTER_NVME, CAPACITY, loop, loop,
            completions::add, memory, plan, new SeededEntropy(3).child("index-faults"));
        final byte[] fresh = pattern(2 * P, 8);
        submitNow(d, io(1, IoOp.WRITE, 4L * P, holding(fresh)));
        assertEquals(List.of(new IoCompletion(1, 2 * P)), completions, "a lost write completes OK");
        assertArrayEquals(fresh, d.bytes(4L * P, 2 * P), "reads see it");
        submitNow(d, io(2, IoOp.FLUSH, 0, null));
        assertArrayEquals(new byte[2 * P], d.durableBytes(4L * P, 2 * P), "the flush keeps the media's old bytes");
        d.crash(new SeededEntropy(1));
        assertArrayEquals(new byte[2 * P], d.bytes(4L * P, 2 * P), "after a crash the write is gone");
        assertEquals(1, d.injectedLostWrites());
    }
}
