package dev.kvtier.harness.metrics;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.IoOp;

/**
 * The bytes a run asked of its L2 devices, as submitted: data reads and writes, and index writes, in total and in
 * one-minute windows on the run's clock (tumbling, from the first L2 I/O), for mean and peak bandwidth and drive
 * writes per day.
 */
public final class L2Traffic {
    static final long WINDOW_NS = 60_000_000_000L;

    private long readBytes;
    private long writeBytes;
    private long indexWriteBytes;
    private long originNs = -1;
    private long window;
    private long windowRead;
    private long windowWrite;
    private long peakRead;
    private long peakWrite;

    /**
     * What a run asked of its L2 devices.
     *
     * @param readBytes             data device bytes read
     * @param writeBytes            data device bytes written
     * @param indexWriteBytes       index device bytes written
     * @param peakMinuteReadBytes   data bytes read in the busiest one-minute window
     * @param peakMinuteWriteBytes  data bytes written in the busiest one-minute window
     */
    public record Figures(long readBytes, long writeBytes, long indexWriteBytes, long peakMinuteReadBytes,
                          long peakMinuteWriteBytes) {
        private static final double DAY_NS = 86_400e9;

        /**
         * Drive writes per day: the data and index bytes written a day at this run's rate (over {@code elapsedNs})
         * over a drive of {@code driveBytes}; 0 for an empty run.
         */
        public double driveWritesPerDay(final long driveBytes, final long elapsedNs) {
            return driveWritesPerDay(driveBytes, elapsedNs, 1);
        }

        /**
         * As {@link #driveWritesPerDay(long, long)}, with the data bytes times {@code dataScale} (a run of a shrunk
         * KV standing for the real one; index records are per slot and are not scaled).
         */
        public double driveWritesPerDay(final long driveBytes, final long elapsedNs, final double dataScale) {
            return elapsedNs <= 0 || driveBytes <= 0 ? 0
                : (writeBytes * dataScale + indexWriteBytes) * (DAY_NS / elapsedNs) / driveBytes;
        }
    }

    /** The window a peak is over for a run of {@code runSeconds}: a minute, or the whole of a shorter run. */
    public static double peakWindowSeconds(final double runSeconds) {
        return Math.min(WINDOW_NS / 1e9, runSeconds);
    }

    void data(final CoreEvent.IoSubmitted e, final long nowNs) {
        roll(nowNs);
        if (e.op() == IoOp.READ) {
            readBytes += e.lengthBytes();
            windowRead += e.lengthBytes();
            peakRead = Math.max(peakRead, windowRead);
        } else if (e.op() == IoOp.WRITE) {
            writeBytes += e.lengthBytes();
            windowWrite += e.lengthBytes();
            peakWrite = Math.max(peakWrite, windowWrite);
        }
    }

    void index(final CoreEvent.IndexIoSubmitted e) {
        if (e.op() == IoOp.WRITE) {
            indexWriteBytes += e.lengthBytes();
        }
    }

    private void roll(final long nowNs) {
        if (originNs < 0) {
            originNs = nowNs;
        }
        final long w = (nowNs - originNs) / WINDOW_NS;
        if (w != window) {
            window = w;
            windowRead = 0;
            windowWrite = 0;
        }
    }

    Figures figures() {
        return new Figures(readBytes, writeBytes, indexWriteBytes, peakRead, peakWrite);
    }
}
