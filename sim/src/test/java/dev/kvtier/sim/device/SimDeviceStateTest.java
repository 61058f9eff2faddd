package dev.kvtier.sim.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated devices' shared state counts the I/Os in flight and refuses a completion that is not of one. */
class SimDeviceStateTest {
    private final EventLoop loop = new EventLoop(100);
    private final List<IoCompletion> completions = new ArrayList<>();
    private final SimDeviceState<byte[]> state = new SimDeviceState<>("I/O", DeviceProfile.CI_EXT4, 1 << 20, loop,
        loop, completions::add, false, new DiskCache(DeviceProfile.CI_EXT4), new WriteCache.Image<>() {
            @Override
            public void persist(final byte[] content, final long fileOffset, final long from, final long length) {
                // nothing durable to keep in this test
            }

            @Override
            public void revertToDurable() {
                // one image
            }
        });
    private final IoRequest read = new IoRequest(7, IoOp.READ, 0,
        List.of(new IoSegment(new ProvenanceMemory().allocate("m", 4096), 0, 4096)));

    @Test
    void aCompletionIsOfAnIoInFlight() {
        state.at(10, () -> state.completeRead(read));
        assertEquals(1, state.inFlight());
        loop.run();
        assertEquals(0, state.inFlight());
        assertEquals(List.of(new IoCompletion(7, 4096)), completions);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> state.completeRead(read));
        assertTrue(e.getMessage().contains("with no I/O in flight"), e.getMessage());
    }

    @Test
    void aCrashForgetsTheIosInFlight() {
        state.failAt(10, 8, IoCompletion.EIO);
        state.crash(new SeededEntropy(1));
        assertEquals(0, state.inFlight());
        loop.run();
        assertEquals(List.of(), completions, "the completion scheduled before the crash is dropped");
    }

    @Test
    void aCompletionIsOfItsOwnKind() {
        state.at(10, () -> state.completeRead(new IoRequest(9, IoOp.FLUSH, 0, List.of())));
        final IllegalStateException e = assertThrows(IllegalStateException.class, loop::run);
        assertTrue(e.getMessage().contains("is a FLUSH, completed as a READ"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> state.failAt(10, 9, 0));
    }
}
