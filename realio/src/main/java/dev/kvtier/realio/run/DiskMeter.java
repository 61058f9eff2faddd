package dev.kvtier.realio.run;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the L2 data device did during a real run, measured where the core hands it I/O: the time it had at least one
 * I/O in flight (busy), the mean number in flight over the run (queue depth), and the bytes it read and wrote with
 * their bandwidth while busy. These are the disk's figures, beside the workload's (bytes over a phase, which the
 * prefill time sets). A decorator of the core's {@link Device} port on the loop thread; completions of other devices
 * (the index) are not its own and are ignored. The map is for point look-ups by I/O id.
 */
public final class DiskMeter implements Device {
    private final Device device;
    private final LongSupplier clock;
    private final Map<Long, IoRequest> inFlight = new HashMap<>();
    private long lastNs;
    private long busyNs;
    private long depthNs;
    private long readBytes;
    private long writeBytes;
    private long startNs = -1;

    /**
     * The disk's figures over a run.
     *
     * @param busyNanos  time with at least one I/O in flight
     * @param elapsedNanos time from the first I/O to the last completion
     * @param meanQueueDepth I/Os in flight on average over {@code elapsedNanos}
     * @param readBytes  bytes read (completed without error)
     * @param writeBytes bytes written (completed without error)
     */
    public record Figures(long busyNanos, long elapsedNanos, double meanQueueDepth, long readBytes, long writeBytes) {
        /** The busy fraction of the elapsed time. */
        public double busyFraction() {
            return elapsedNanos == 0 ? 0 : (double) busyNanos / elapsedNanos;
        }

        /** One line for the run's summary. */
        public String describe() {
            return String.format(Locale.ROOT, "disk (L2 data): busy %.1f %% of %.3f s, mean queue depth %.2f; read "
                + "%.2f GiB (%.2f GB/s while busy), wrote %.2f GiB (%.2f GB/s while busy)", 100 * busyFraction(),
                elapsedNanos / 1e9, meanQueueDepth, readBytes / (double) (1L << 30), perSecBusy(readBytes),
                writeBytes / (double) (1L << 30), perSecBusy(writeBytes));
        }

        /** Bytes written a second while the disk had an I/O in flight (0 when it never had). */
        public double writeBytesPerSecBusy() {
            return busyNanos == 0 ? 0 : writeBytes / (busyNanos / 1e9);
        }

        private double perSecBusy(final long bytes) {
            return busyNanos == 0 ? 0 : bytes / (busyNanos / 1e9) / 1e9;
        }
    }

    DiskMeter(final Device device, final LongSupplier clock) {
        this.device = device;
        this.clock = clock;
    }

    @Override
    public long capacityBytes() {
        return device.capacityBytes();
    }

    @Override
    public void submit(final IoRequest request) {
        advance();
        if (startNs < 0) {
            startNs = lastNs;
        }
        if (inFlight.put(request.ioId(), request) != null) {
            throw new IllegalStateException("I/O " + request.ioId() + " submitted while in flight");
        }
        device.submit(request);
    }

    /** Takes a completion the loop delivers: the data device's own are counted, others ignored. */
    void completed(final IoCompletion c) {
        final IoRequest r = inFlight.get(c.ioId());
        if (r == null) {
            return;
        }
        advance();
        inFlight.remove(c.ioId());
        if (!c.failed()) {
            if (r.op() == IoOp.READ) {
                readBytes += r.lengthBytes();
            } else if (r.op() == IoOp.WRITE) {
                writeBytes += r.lengthBytes();
            }
        }
    }

    /** Adds the time since the last change at the depth it had. */
    private void advance() {
        final long now = clock.getAsLong();
        if (lastNs != 0 && !inFlight.isEmpty()) {
            busyNs += now - lastNs;
            depthNs += (now - lastNs) * inFlight.size();
        }
        lastNs = now;
    }

    /** The figures so far. */
    Figures figures() {
        final long elapsed = startNs < 0 ? 0 : lastNs - startNs;
        return new Figures(busyNs, elapsed, elapsed == 0 ? 0 : (double) depthNs / elapsed, readBytes, writeBytes);
    }
}
