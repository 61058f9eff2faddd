package dev.kvtier.realio.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeRegion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop's view of the data and index devices: who is polled first and where the loop waits. */
class DevicePairTest {
    /** A device that records calls; {@code outstanding} and {@code ready} are set by the test. */
    private static final class Fake implements PolledDevice {
        final String name;
        final List<String> calls;
        int outstanding;
        final List<Long> ready = new ArrayList<>();

        Fake(final String name, final List<String> calls) {
            this.name = name;
            this.calls = calls;
        }

        @Override
        public String kind() {
            return "fake";
        }

        @Override
        public long capacityBytes() {
            return 1L << 20;
        }

        @Override
        public int depth() {
            return 1;
        }

        @Override
        public int maxRequests() {
            return 8;
        }

        @Override
        public int outstanding() {
            return outstanding;
        }

        @Override
        public void submit(final IoRequest request) {
            calls.add(name + ".submit");
        }

        @Override
        public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                                final long regionOffset, final long lengthBytes) {
            calls.add(name + ".submitBlock");
        }

        @Override
        public int flush() {
            calls.add(name + ".flush");
            return 0;
        }

        @Override
        public int poll(final CompletionSink sink, final int max) {
            int n = 0;
            while (n < max && !ready.isEmpty()) {
                sink.complete(ready.removeFirst(), 0);
                n++;
            }
            return n;
        }

        @Override
        public void await(final long timeoutNs) {
            calls.add(name + ".await " + timeoutNs);
        }

        @Override
        public void close() {
            calls.add(name + ".close");
        }
    }

    private final List<String> calls = new ArrayList<>();
    private final Fake data = new Fake("data", calls);
    private final Fake index = new Fake("index", calls);
    private final DevicePair pair = new DevicePair(data, index);

    @Test
    void shouldWaitInTheIndexDeviceForABoundedTimeWhenBothAreBusy() {
        data.outstanding = 3;
        index.outstanding = 1;
        pair.await(10_000_000);
        assertEquals(List.of("data.flush", "index.await " + DevicePair.BOTH_BUSY_WAIT_NS_MAX), calls);
    }

    @Test
    void shouldWaitTheWholeTimeoutInTheOnlyBusyDevice() {
        data.outstanding = 2;
        pair.await(10_000_000);
        index.outstanding = 1;
        data.outstanding = 0;
        pair.await(5_000_000);
        assertEquals(List.of("index.flush", "data.await 10000000", "data.flush", "index.await 5000000"), calls);
    }

    @Test
    void shouldDeliverIndexCompletionsFirstWithinTheLimit() {
        data.ready.addAll(List.of(1L, 2L, 3L));
        index.ready.add(7L);
        final List<Long> got = new ArrayList<>();
        assertEquals(3, pair.poll((ioId, result) -> got.add(ioId), 3));
        assertEquals(List.of(7L, 1L, 2L), got);
        assertEquals(1, pair.poll((ioId, result) -> got.add(ioId), 3));
        assertEquals(List.of(7L, 1L, 2L, 3L), got);
    }

    @Test
    void shouldCloseBothAndRefuseOneDeviceTwice() {
        pair.close();
        assertEquals(List.of("index.close", "data.close"), calls);
        assertThrows(IllegalArgumentException.class, () -> new DevicePair(data, data));
    }
}
