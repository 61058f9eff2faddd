package dev.kvtier.realio.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real loop refuses to be stepped from inside one of its own steps (no device needed: a device that is idle). */
class RealLoopChecksTest {
    /** A device with nothing to do. */
    private static final class IdleDevice implements PolledDevice {
        @Override
        public long capacityBytes() {
            return 4096;
        }

        @Override
        public void submit(final IoRequest request) {
            throw new UnsupportedOperationException("idle");
        }

        @Override
        public String kind() {
            return "idle";
        }

        @Override
        public int depth() {
            return 1;
        }

        @Override
        public int maxRequests() {
            return 1;
        }

        @Override
        public int outstanding() {
            return 0;
        }

        @Override
        public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                                final long regionOffset, final long lengthBytes) {
            throw new UnsupportedOperationException("idle");
        }

        @Override
        public int flush() {
            return 0;
        }

        @Override
        public int poll(final CompletionSink sink, final int max) {
            return 0;
        }

        @Override
        public void await(final long timeoutNs) {
            // nothing to wait for
        }

        @Override
        public void close() {
            // nothing held
        }
    }

    @Test
    void aTaskThatStepsTheLoopIsRefused() {
        final RealLoop loop = RealLoop.over(new IdleDevice(), c -> {});
        final List<String> ran = new ArrayList<>();
        loop.post(loop::step);
        final IllegalStateException e = assertThrows(IllegalStateException.class, loop::step);
        assertTrue(e.getMessage().contains("inside one of its steps"), e.getMessage());
        loop.post(() -> ran.add("later"));
        loop.step(); // the refusal left the loop usable
        assertEquals(List.of("later"), ran);
    }
}
