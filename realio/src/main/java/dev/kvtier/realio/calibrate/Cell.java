package dev.kvtier.realio.calibrate;

import dev.kvtier.core.value.IoOp;
import java.util.Locale;
import java.util.Objects;

/**
 * One cell of a calibration: I/Os of {@code op} and {@code blockBytes} at random aligned offsets, {@code depth} in
 * flight.
 */
public record Cell(IoOp op, long blockBytes, int depth) {
    public Cell {
        Objects.requireNonNull(op, "op");
        if (op == IoOp.FLUSH || blockBytes <= 0 || blockBytes % 4096 != 0 || depth <= 0) {
            throw new IllegalArgumentException("bad cell: " + op + " of " + blockBytes + " B at depth " + depth);
        }
    }

    /** For example {@code read 2304K depth 8}. */
    @Override
    public String toString() {
        return op.name().toLowerCase(Locale.ROOT) + " " + size(blockBytes) + " depth " + depth;
    }

    /** A size in KiB or MiB, whichever is whole. */
    static String size(final long bytes) {
        return bytes % (1 << 20) == 0 ? bytes / (1 << 20) + "M" : bytes / 1024 + "K";
    }
}
