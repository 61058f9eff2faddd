package dev.kvtier.sim.memory;

import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.core.port.Stamping;
import java.util.Arrays;
import java.util.Objects;

/**
 * Simulated memory: a region holds no KV bytes, only the provenance of each byte range ({@link RunMap}), so the full
 * reference workload (225 GiB of KV) simulates in megabytes of heap and every load can still be checked exactly:
 * a loaded slot is right when its provenance is its key's content from position 0. Every copy, checksum, stamp and
 * content check is reported to a {@link CopyListener} so the host cost model can charge it.
 *
 * <p>Index metadata is different: the core writes and reads it as real bytes ({@link #write}, {@link #read}), so a
 * region also has a byte layer, a heap array of the region's size created on the first write (metadata regions
 * are small; at most {@link #MAX_BYTE_REGION_BYTES}). A never-written byte reads as 0. The two layers are
 * independent: {@link #copy} moves both, {@link #stamp} and {@link #checksum} concern provenance only, and
 * {@link #write} leaves provenance alone. The simulated L2 data device moves provenance only; the simulated
 * metadata device moves bytes only.
 *
 * <p>It resolves its own regions for the simulated L2 device it is paired with ({@link #resolve}): a region of
 * another memory is refused with one message, by the devices and by every method here.
 */
public final class ProvenanceMemory implements Memory, Stamping, RegionResolver<ProvenanceMemory.ProvRegion> {
    /** The largest region that may hold bytes: metadata buffers are at most a few MiB. */
    public static final long MAX_BYTE_REGION_BYTES = 256L << 20;

    private CopyListener listener = (src, dst, bytes) -> {};
    private long liveBytes;
    private long copiedBytes;
    private ProvRegion lastCopyDst;
    private long lastCopyFrom;
    private long lastCopyTo;

    /** Told about every copy, and about every checksum, stamp and check of content (for the host cost model). */
    @FunctionalInterface
    public interface CopyListener {
        void copied(ProvRegion src, ProvRegion dst, long bytes);

        /**
         * {@code bytes} of {@code region} were checksummed; {@code afterCopy}: all of them lie in what the last copy
         * wrote (a store's checksum of a slot it just copied into L1, not a slot read back from a device).
         */
        default void checksummed(final ProvRegion region, final long bytes, final boolean afterCopy) {}

        /** {@code bytes} of {@code region} were stamped with a tag's content. */
        default void stamped(final ProvRegion region, final long bytes) {}

        /** {@code bytes} of {@code region} were checked against a tag's content. */
        default void verified(final ProvRegion region, final long bytes) {}
    }

    /** A simulated region. */
    public static final class ProvRegion implements MemoryRegion {
        private final ProvenanceMemory owner;
        private final String name;
        private final long sizeBytes;
        final RunMap runs = new RunMap();
        boolean freed;
        private byte[] bytes;

        ProvRegion(final ProvenanceMemory owner, final String name, final long sizeBytes) {
            this.owner = owner;
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

        /** True once bytes were written into this region (its byte layer exists). */
        public boolean holdsBytes() {
            return bytes != null;
        }

        /** The byte layer, created (all zero) on first use. */
        byte[] bytes() {
            if (bytes == null) {
                if (sizeBytes > MAX_BYTE_REGION_BYTES) {
                    throw new IllegalArgumentException("region " + name + " of " + sizeBytes + " B is too large to "
                        + "hold bytes (at most " + MAX_BYTE_REGION_BYTES + " B; only metadata is written as bytes)");
                }
                bytes = new byte[(int) sizeBytes];
            }
            return bytes;
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
        return new ProvRegion(this, name, sizeBytes);
    }

    /** {@code region} as a region of this memory; refused (IllegalArgumentException) when another memory made it. */
    @Override
    public ProvRegion resolve(final MemoryRegion region) {
        if (region instanceof ProvRegion r && r.owner == this) {
            return r;
        }
        throw new IllegalArgumentException("region " + region.name() + " (" + region.getClass().getSimpleName()
            + ") is not from this simulated memory");
    }

    @Override
    public void copy(final MemoryRegion src, final long srcOffset, final MemoryRegion dst, final long dstOffset,
                     final long lengthBytes) {
        final ProvRegion s = live(src);
        final ProvRegion d = live(dst);
        check(s, srcOffset, lengthBytes);
        check(d, dstOffset, lengthBytes);
        d.runs.copyFrom(s.runs, srcOffset, dstOffset, lengthBytes);
        if (s.holdsBytes()) {
            System.arraycopy(s.bytes(), (int) srcOffset, d.bytes(), (int) dstOffset, (int) lengthBytes);
        } else if (d.holdsBytes()) {
            Arrays.fill(d.bytes(), (int) dstOffset, (int) (dstOffset + lengthBytes), (byte) 0);
        }
        copiedBytes += lengthBytes;
        lastCopyDst = d;
        lastCopyFrom = dstOffset;
        lastCopyTo = dstOffset + lengthBytes;
        listener.copied(s, d, lengthBytes);
    }

    @Override
    public void free(final MemoryRegion region) {
        final ProvRegion r = live(region);
        r.freed = true;
        r.bytes = null;
        liveBytes -= r.sizeBytes();
    }

    @Override
    public void stamp(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final ProvRegion r = live(region);
        check(r, offset, lengthBytes);
        r.runs.put(offset, lengthBytes, tag, 0);
        listener.stamped(r, lengthBytes);
    }

    @Override
    public long firstMismatch(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final ProvRegion r = live(region);
        check(r, offset, lengthBytes);
        listener.verified(r, lengthBytes);
        return r.runs.firstMismatch(offset, lengthBytes, tag);
    }

    /** XXH3-64 of the range's provenance, position-relative ({@link RunMap#contentHash}); bytes play no part. */
    @Override
    public long checksum(final MemoryRegion region, final long offset, final long lengthBytes) {
        final ProvRegion r = live(region);
        check(r, offset, lengthBytes);
        listener.checksummed(r, lengthBytes, r == lastCopyDst && offset >= lastCopyFrom
            && offset + lengthBytes <= lastCopyTo);
        return r.runs.contentHash(offset, lengthBytes);
    }

    @Override
    public void write(final MemoryRegion dst, final long dstOffset, final byte[] src, final int srcOffset,
                      final int length) {
        final ProvRegion d = live(dst);
        check(d, dstOffset, length);
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        System.arraycopy(src, srcOffset, d.bytes(), (int) dstOffset, length);
    }

    @Override
    public void read(final MemoryRegion src, final long srcOffset, final byte[] dst, final int dstOffset,
                     final int length) {
        final ProvRegion s = live(src);
        check(s, srcOffset, length);
        Objects.checkFromIndexSize(dstOffset, length, dst.length);
        if (s.holdsBytes()) {
            System.arraycopy(s.bytes(), (int) srcOffset, dst, dstOffset, length);
        } else {
            Arrays.fill(dst, dstOffset, dstOffset + length, (byte) 0);
        }
    }

    /** Virtual bytes of live regions. */
    public long liveBytes() {
        return liveBytes;
    }

    public long copiedBytes() {
        return copiedBytes;
    }

    private ProvRegion live(final MemoryRegion region) {
        final ProvRegion r = resolve(region);
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
