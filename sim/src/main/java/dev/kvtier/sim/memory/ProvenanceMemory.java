package dev.kvtier.sim.memory;

import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.Stamping;

/**
 * Simulated memory: a region holds no bytes, only the provenance of each byte range ({@link RunMap}), so the full
 * reference workload (225 GiB of KV) simulates in megabytes of heap and every load can still be checked exactly:
 * a loaded slot is right when its provenance is its key's content from position 0. Every copy is reported to a
 * {@link CopyListener} so the host cost model can charge it.
 */
public final class ProvenanceMemory implements Memory, Stamping {
    private CopyListener listener = (src, dst, bytes) -> { };
    private long liveBytes;
    private long copiedBytes;

    /** Told about every copy. */
    @FunctionalInterface
    public interface CopyListener {
        void copied(ProvRegion src, ProvRegion dst, long bytes);
    }

    /** A simulated region. */
    public static final class ProvRegion implements MemoryRegion {
        private final String name;
        private final long sizeBytes;
        final RunMap runs = new RunMap();
        boolean freed;

        ProvRegion(final String name, final long sizeBytes) {
            this.name = name;
            this.sizeBytes = sizeBytes;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long sizeBytes() {
            return sizeBytes;
        }

        public RunMap runs() {
            return runs;
        }
    }

    public void setListener(final CopyListener copyListener) {
        this.listener = copyListener;
    }

    @Override
    public ProvRegion allocate(final String name, final long sizeBytes) {
        Alignment.requireAligned("region size", sizeBytes);
        if (sizeBytes == 0) {
            throw new IllegalArgumentException("region size must be positive");
        }
        liveBytes += sizeBytes;
        return new ProvRegion(name, sizeBytes);
    }

    @Override
    public void copy(final MemoryRegion src, final long srcOffset, final MemoryRegion dst, final long dstOffset,
                     final long lengthBytes) {
        final ProvRegion s = live(src);
        final ProvRegion d = live(dst);
        check(s, srcOffset, lengthBytes);
        check(d, dstOffset, lengthBytes);
        d.runs.copyFrom(s.runs, srcOffset, dstOffset, lengthBytes);
        copiedBytes += lengthBytes;
        listener.copied(s, d, lengthBytes);
    }

    @Override
    public void free(final MemoryRegion region) {
        final ProvRegion r = live(region);
        r.freed = true;
        liveBytes -= r.sizeBytes();
    }

    @Override
    public void stamp(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final ProvRegion r = live(region);
        check(r, offset, lengthBytes);
        r.runs.put(offset, lengthBytes, tag, 0);
    }

    @Override
    public long firstMismatch(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final ProvRegion r = live(region);
        check(r, offset, lengthBytes);
        return r.runs.firstMismatch(offset, lengthBytes, tag);
    }

    /** Virtual bytes of live regions. */
    public long liveBytes() {
        return liveBytes;
    }

    public long copiedBytes() {
        return copiedBytes;
    }

    private static ProvRegion live(final MemoryRegion region) {
        final ProvRegion r = (ProvRegion) region;
        if (r.freed) {
            throw new IllegalStateException("use of freed region " + r.name());
        }
        return r;
    }

    private static void check(final ProvRegion r, final long offset, final long lengthBytes) {
        if (offset < 0 || lengthBytes < 0 || offset + lengthBytes > r.sizeBytes()) {
            throw new IllegalArgumentException("range [" + offset + ", +" + lengthBytes + ") outside region "
                + r.name() + " of " + r.sizeBytes() + " B");
        }
    }
}
