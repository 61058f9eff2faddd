package dev.kvtier.core.port;

import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.value.IoOp;
import java.util.List;
import java.util.Objects;

/**
 * One device operation. A READ or WRITE moves the file range {@code [fileOffset, fileOffset + lengthBytes())} to
 * or from its segments, in order (a vectored I/O when there are several). A FLUSH has no segments.
 *
 * @param ioId       the core's id for this I/O; the completion carries it back
 * @param op         what to do
 * @param fileOffset byte offset in the L2 file, a multiple of 4096
 * @param segments   memory pieces, in file order (empty for FLUSH)
 */
public record IoRequest(long ioId, IoOp op, long fileOffset, List<IoSegment> segments) {
    public IoRequest {
        Objects.requireNonNull(op, "op");
        Alignment.requireAligned("I/O file offset", fileOffset);
        segments = List.copyOf(segments);
        if (op == IoOp.FLUSH && !segments.isEmpty()) {
            throw new IllegalArgumentException("a FLUSH carries no segments");
        }
        if (op != IoOp.FLUSH && segments.isEmpty()) {
            throw new IllegalArgumentException(op + " needs at least one segment");
        }
    }

    /** Total bytes moved. */
    public long lengthBytes() {
        long total = 0;
        for (int i = 0; i < segments.size(); i++) { // by index: asked for every I/O, an iterator each time
            total += segments.get(i).lengthBytes();
        }
        return total;
    }
}
