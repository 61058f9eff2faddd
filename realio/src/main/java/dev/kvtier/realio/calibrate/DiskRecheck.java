package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.device.OpenResult;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A short look at the disk between a sitting's runs: the two cells a device profile takes its bandwidths from (the
 * run's largest read and write at its depth), measured again by the same meter on huge pages, on the calibration's
 * own scratch file (written whole by that calibration, so every read reads bytes it wrote). Three rounds of each,
 * reads and writes alternating; the medians. It says how far the disk has moved from its calibration while the
 * sitting ran; it changes no profile. A {@link Session} holds the file open (and its meter's buffers) for a sitting:
 * its span is written once when it opens.
 */
public final class DiskRecheck {
    private static final long MIB = 1L << 20;
    /** Rounds of each cell. */
    private static final int ROUNDS = 3;

    private DiskRecheck() {}

    /**
     * The disk's two bandwidths at one moment.
     *
     * @param readBps  the read cell's median, bytes a second
     * @param writeBps the write cell's median, bytes a second
     */
    public record Figures(long readBps, long writeBps) {
        /** Read and write against {@code p}'s, as "read 2.31 GB/s (-2 %), write 3.40 GB/s (+1 %)". */
        public String describe(final DeviceProfile p) {
            return String.format(Locale.ROOT, "read %.2f GB/s (%+.0f %%), write %.2f GB/s (%+.0f %%)", readBps / 1e9,
                100 * readMove(p), writeBps / 1e9, 100 * writeMove(p));
        }

        /** This read bandwidth over the profile's, minus one. */
        public double readMove(final DeviceProfile p) {
            return (double) readBps / p.readBytesPerSec() - 1;
        }

        /** This write bandwidth over the profile's, minus one. */
        public double writeMove(final DeviceProfile p) {
            return (double) writeBps / p.writeBytesPerSec() - 1;
        }
    }

    /**
     * Opens {@code file} from {@code baseOffset} on, for a calibration made with the full plan of {@code fileBytes}
     * (or the quick plan), and writes its span once (a read cell measures only bytes its own meter wrote). Empty when
     * the file cannot be opened with io_uring and O_DIRECT.
     */
    public static Optional<Session> open(final Path file, final long baseOffset, final long fileBytes,
                                         final boolean quick, final RunShape shape) {
        final DeviceCalibration.Plan plan = DeviceCalibration.plan(quick, shape, fileBytes);
        final CalibrationRun.Opened opened = CalibrationRun.open(file, baseOffset, plan);
        if (opened.result() instanceof OpenResult.Failed) {
            return Optional.empty();
        }
        final NativeMemory memory = opened.memory();
        final PolledDevice device = opened.result().orThrow();
        try {
            final IoMeter meter = DeviceCalibration.meter(device, memory, "recheck", plan,
                new PrintStream(OutputStream.nullOutputStream())); // as the calibration: without, it measures anyway
            meter.fill(Math.min(4 * MIB, plan.fileBytes()));
            return Optional.of(new Session(memory, device, meter, shape.readBandwidthCell(plan.runBlockMax()),
                shape.writeBandwidthCell(plan.runBlockMax())));
        } catch (final RuntimeException e) { // a failed write of the span: nothing is held open
            try (memory) {
                device.close();
            }
            throw e;
        }
    }

    /** The open file and its meter, for the rechecks of one sitting. */
    public static final class Session implements AutoCloseable {
        private final NativeMemory memory;
        private final PolledDevice device;
        private final IoMeter meter;
        private final Cell read;
        private final Cell write;
        private long seed = 0xC4EC;

        private Session(final NativeMemory memory, final PolledDevice device, final IoMeter meter, final Cell read,
                        final Cell write) {
            this.memory = memory;
            this.device = device;
            this.meter = meter;
            this.read = read;
            this.write = write;
        }

        /**
         * The two cells now, {@code cellNs} a round; empty when an I/O failed or the meter refused (its span not
         * written whole): a recheck that fails is reported as skipped and never stops the sitting.
         */
        public Optional<Figures> measure(final long cellNs) {
            final List<Long> reads = new ArrayList<>();
            final List<Long> writes = new ArrayList<>();
            try {
                for (int r = 0; r < ROUNDS; r++) {
                    final Measurement rm = meter.measure(IoOp.READ, read.blockBytes(), read.depth(), cellNs, seed++);
                    final Measurement wm = meter.measure(IoOp.WRITE, write.blockBytes(), write.depth(), cellNs,
                        seed++);
                    if (rm.errors() > 0 || wm.errors() > 0) {
                        return Optional.empty();
                    }
                    reads.add(rm.bytesPerSec());
                    writes.add(wm.bytesPerSec());
                }
            } catch (final IllegalStateException e) {
                return Optional.empty();
            }
            return Optional.of(new Figures(new SideBySide.Spread(reads).median(),
                new SideBySide.Spread(writes).median()));
        }

        @Override
        public void close() {
            try (memory) {
                device.close();
            }
        }
    }
}
