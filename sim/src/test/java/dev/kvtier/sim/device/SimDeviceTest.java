package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimDeviceTest {
    private static final long MIB = 1 << 20;
    private final EventLoop loop = new EventLoop(1_000_000);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final List<Long> doneAt = new ArrayList<>();
    private final List<IoCompletion> completions = new ArrayList<>();

    private SimDevice device(final DeviceProfile p) {
        return new SimDevice(p, 1L << 30, loop, loop, c -> {
            doneAt.add(loop.nowNs());
            completions.add(c);
        }, memory);
    }

    private static IoRequest io(final long id, final IoOp op, final long file, final ProvRegion r, final long len) {
        return new IoRequest(id, op, file, List.of(new IoSegment(r, 0, len)));
    }

    @Test
    void shouldTakeLatencyPlusTransferForOneIo() {
        final DeviceProfile p = new DeviceProfile("t", 100_000, 50_000, 1_000, 1_000_000_000, 2_000_000_000L, 4);
        final SimDevice d = device(p);
        final ProvRegion r = memory.allocate("r", MIB);
        loop.at(0, () -> d.submit(io(1, IoOp.WRITE, 0, r, MIB)));
        loop.run();
        assertEquals(List.of(50_000L + 524_288L), doneAt, "50 us + 1 MiB at 2 GB/s");
    }

    @Test
    void shouldOverlapLatenciesUpToParallelismForSmallIo() {
        final DeviceProfile p = new DeviceProfile("t", 100_000, 100_000, 1_000, 100_000_000_000L,
            100_000_000_000L, 4);
        final SimDevice d = device(p);
        final ProvRegion r = memory.allocate("r", 4096);
        loop.at(0, () -> {
            for (int i = 0; i < 8; i++) {
                d.submit(io(i, IoOp.READ, i * 4096L, r, 4096));
            }
        });
        loop.run();
        assertEquals(8, doneAt.size());
        assertTrue(doneAt.get(3) < 101_000, "four channels finish together: " + doneAt);
        assertTrue(doneAt.get(4) >= 200_000 && doneAt.get(7) < 202_000, "the next four queue behind: " + doneAt);
    }

    @Test
    void shouldSerializeTransfersOnTheSharedPath() {
        final DeviceProfile p = new DeviceProfile("t", 1_000, 1_000, 1_000, 1_000_000_000, 1_000_000_000, 16);
        final SimDevice d = device(p);
        final ProvRegion r = memory.allocate("r", 8 * MIB);
        loop.at(0, () -> {
            for (int i = 0; i < 4; i++) {
                d.submit(io(i, IoOp.READ, i * 8L * MIB, r, 8 * MIB));
            }
        });
        loop.run();
        final double seconds = doneAt.getLast() / 1e9;
        assertEquals(32 * MIB / 1e9, seconds, 0.001, "bandwidth-bound: 32 MiB at 1 GB/s");
    }

    @Test
    void shouldMoveProvenanceAtCompletion() {
        final SimDevice d = device(DeviceProfile.DATACENTER_NVME);
        final ProvRegion src = memory.allocate("src", 4096);
        final ProvRegion dst = memory.allocate("dst", 4096);
        memory.stamp(src, 0, 4096, 42);
        loop.at(0, () -> d.submit(io(1, IoOp.WRITE, 8192, src, 4096)));
        loop.at(0, () -> memory.stamp(src, 0, 4096, 43)); // the slice changes before the write completes
        loop.run();
        assertEquals(43, d.disk().tagAt(8192), "data moves at completion, so reuse before completion is visible");
        loop.at(loop.nowNs(), () -> d.submit(io(2, IoOp.READ, 8192, dst, 4096)));
        loop.run();
        assertEquals(43, dst.runs().tagAt(0));
        assertEquals(4096, completions.getLast().result());
    }

    @Test
    void shouldRefuseARegionOfAnotherMemoryAtSubmit() {
        final SimDevice d = device(DeviceProfile.DATACENTER_NVME);
        final ProvRegion theirs = new ProvenanceMemory().allocate("theirs", 4096);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> d.submit(io(1, IoOp.WRITE, 0, theirs, 4096)));
        assertTrue(e.getMessage().contains("theirs"), e.getMessage());
        loop.run();
        assertTrue(completions.isEmpty(), "nothing was scheduled");
        assertEquals(0, d.writes());
    }
}
