package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import java.util.Objects;

/**
 * One measured cell: {@code op} of {@code blockBytes} at {@code depth} in flight.
 *
 * @param bytesPerSec   bytes moved per second of the run
 * @param iops          operations completed per second
 * @param meanLatencyNs mean time from submission to completion seen by the loop
 * @param operations    operations completed
 * @param errors        operations that failed (a run with errors is not a measurement to trust)
 * @param cpuNsPerIo    CPU time the measuring side spent per completed I/O, user and system (kvtier: the measuring
 *                      thread's; fio: its job's), or -1 when not known
 */
public record Measurement(IoOp op, long blockBytes, int depth, long bytesPerSec, long iops, long meanLatencyNs,
                          long operations, long errors, long cpuNsPerIo) {
    public Measurement {
        Objects.requireNonNull(op, "op");
        if (blockBytes <= 0 || depth <= 0 || bytesPerSec < 0 || iops < 0 || meanLatencyNs < 0 || operations < 0) {
            throw new IllegalArgumentException("bad measurement: " + op + " " + blockBytes + " B depth " + depth
                + ", " + bytesPerSec + " B/s, " + iops + " IOPS, " + meanLatencyNs + " ns, " + operations + " ops");
        }
    }

    /** A measurement whose CPU time per I/O is not known. */
    public Measurement(final IoOp op, final long blockBytes, final int depth, final long bytesPerSec, final long iops,
                       final long meanLatencyNs, final long operations, final long errors) {
        this(op, blockBytes, depth, bytesPerSec, iops, meanLatencyNs, operations, errors, -1);
    }

    /** Gigabytes (10^9 bytes) per second. */
    public double gbPerSec() {
        return bytesPerSec / 1e9;
    }
}
