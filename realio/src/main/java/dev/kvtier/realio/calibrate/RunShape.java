package dev.kvtier.realio.calibrate;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.List;

/**
 * The I/O a run issues, which the calibration measures so that the profile describes it: grouped writes of up to
 * {@code writeBatchBytes} (a store's file-contiguous spans in one write), load reads of one slot up to
 * {@code maxReadBytes} (a gap of a prefix missing from L1 in one read), at most {@code concurrentIos} in flight.
 *
 * @param slotBytes       one slot (the smallest write and read)
 * @param writeBatchBytes the core's {@code groupedWriteBatchBytes}
 * @param maxReadBytes    the core's {@code maxReadBytes}
 * @param concurrentIos   the core's {@code concurrentIos}
 */
public record RunShape(long slotBytes, long writeBatchBytes, long maxReadBytes, int concurrentIos) {
    /** Qwen3-8B bf16 slots (2.25 MiB) and the core's default batches and depth: what a run issues by default. */
    public static final RunShape DEFAULT = of(CoreConfig.builder(2_359_296L).build());

    public RunShape {
        for (final long b : new long[] {slotBytes, writeBatchBytes, maxReadBytes}) {
            if (b <= 0 || b % 4096 != 0) {
                throw new IllegalArgumentException("run shape sizes must be positive multiples of 4096: " + slotBytes
                    + ", " + writeBatchBytes + ", " + maxReadBytes);
            }
        }
        if (concurrentIos <= 0) {
            throw new IllegalArgumentException("concurrentIos must be positive, got " + concurrentIos);
        }
    }

    /** The shape of a run of {@code config}. */
    public static RunShape of(final CoreConfig config) {
        return new RunShape(config.slotBytes(), config.groupedWriteBatchBytes(), config.maxReadBytes(),
            config.concurrentIos());
    }

    /** The largest write of a run, at most {@code capBytes} (rounded down to 4096, at least one slot). */
    long writeBytes(final long capBytes) {
        return Math.max(slotBytes, Math.min(Math.max(writeBatchBytes, slotBytes), capBytes) / 4096 * 4096);
    }

    /** The largest read of a run, at most {@code capBytes} (whole slots, at least one). */
    long readBytes(final long capBytes) {
        final long slots = Math.max(1, Math.min(Math.max(maxReadBytes, slotBytes), capBytes) / slotBytes);
        return slots * slotBytes;
    }

    /** The write cell whose bandwidth the profile takes: the largest write at the run's depth. */
    Cell writeBandwidthCell(final long capBytes) {
        return new Cell(IoOp.WRITE, writeBytes(capBytes), concurrentIos);
    }

    /** The read cell whose bandwidth the profile takes: the largest read at the run's depth. */
    Cell readBandwidthCell(final long capBytes) {
        return new Cell(IoOp.READ, readBytes(capBytes), concurrentIos);
    }

    /** Every cell of the run's shape: slot-sized and largest reads and writes, at depth 1 and the run's depth. */
    List<Cell> cells(final long capBytes) {
        final List<Cell> out = new ArrayList<>();
        for (final IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            final long largest = op == IoOp.READ ? readBytes(capBytes) : writeBytes(capBytes);
            final List<Long> sizes = largest == slotBytes ? List.of(slotBytes) : List.of(slotBytes, largest);
            for (final long size : sizes) {
                for (final int depth : concurrentIos == 1 ? List.of(1) : List.of(1, concurrentIos)) {
                    out.add(new Cell(op, size, depth));
                }
            }
        }
        return out;
    }
}
