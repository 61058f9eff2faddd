package dev.kvtier.realio.memory;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import com.dynatrace.hash4j.hashing.HashStream64;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.RegionResolver;
import dev.kvtier.core.port.Stamping;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The Memory and Stamping ports over native memory. Every region comes from one shared {@link Arena} owned by this
 * memory and closed by {@link #close()}; a region is 4096-aligned. An Arena cannot free one allocation, so a freed
 * region goes to a free list and a later allocation of the same size reuses it; the total allocated from the arena
 * never exceeds {@code budgetBytes}, fixed at construction. Not thread-safe: the loop thread allocates and copies
 * (device threads only move bytes in and out of regions).
 *
 * <p>A real device is opened with the memory it moves bytes of, and resolves each region the core hands it through
 * {@link #resolve}: a region of another memory is refused with one message, there and by every method here.
 */
public final class NativeMemory implements Memory, Stamping, RegionResolver<NativeRegion>, AutoCloseable {
    private static final long LE_MASK = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 0 : 1;

    private static final long HUGE_PAGE_BYTES = 2L << 20;
    private static final int PROT_READ_WRITE = 0x3;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;

    private static final Hasher64 XXH3 = Hashing.xxh3_64();

    private final Arena arena = Arena.ofShared();
    private final byte[] scratch = new byte[64 << 10];
    private final Kernel kernel;
    private final long budgetBytes;
    private final List<NativeRegion> live = new ArrayList<>();
    private final List<NativeRegion> spare = new ArrayList<>();
    private long arenaBytes;
    private boolean closed;
    /** Bytes, nanoseconds and operations of each kind of byte work, three longs a kind, in ByteWork's order. */
    private final long[] tallies = new long[3 * 5];
    private NativeRegion lastCopyDst;
    private long lastCopyFrom;
    private long lastCopyTo;

    private static final int COPY = 0;
    private static final int CHECKSUM = 1;
    private static final int CHECKSUM_COPIED = 2;
    private static final int STAMP = 3;
    private static final int VERIFY = 4;

    /** A memory that allocates at most {@code budgetBytes} (a positive multiple of 4096) in total. */
    public NativeMemory(final long budgetBytes) {
        this(budgetBytes, LibcKernel.create());
    }

    /** As above, mapping large regions through {@code kernel} (null: the arena's allocator only). */
    public NativeMemory(final long budgetBytes, final Kernel kernel) {
        this.kernel = kernel;
        Alignment.requireAligned("memory budget", budgetBytes);
        if (budgetBytes == 0) {
            throw new IllegalArgumentException("memory budget must be positive");
        }
        if (LE_MASK != 0) {
            throw new IllegalStateException("stamping assumes a little-endian machine");
        }
        this.budgetBytes = budgetBytes;
    }

    @Override
    public NativeRegion allocate(final String name, final long sizeBytes) {
        checkOpen();
        Alignment.requireAligned("region size", sizeBytes);
        if (sizeBytes == 0) {
            throw new IllegalArgumentException("region size must be positive: " + name);
        }
        for (int i = 0; i < spare.size(); i++) {
            final NativeRegion r = spare.get(i);
            if (r.sizeBytes() == sizeBytes) {
                spare.remove(i);
                final NativeRegion reused = new NativeRegion(this, name, r.segment());
                live.add(reused);
                return reused;
            }
        }
        if (arenaBytes + sizeBytes > budgetBytes) {
            throw new IllegalStateException("native memory budget of " + budgetBytes + " B exceeded: " + arenaBytes
                + " B allocated, " + sizeBytes + " B more asked for region " + name);
        }
        arenaBytes += sizeBytes;
        final NativeRegion region = new NativeRegion(this, name, mapped(sizeBytes));
        live.add(region);
        return region;
    }

    @Override
    public void copy(final MemoryRegion src, final long srcOffset, final MemoryRegion dst, final long dstOffset,
                     final long lengthBytes) {
        final NativeRegion s = own(src);
        final NativeRegion d = own(dst);
        final long t0 = System.nanoTime();
        MemorySegment.copy(s.segment(), srcOffset, d.segment(), dstOffset, lengthBytes);
        tally(COPY, t0, lengthBytes);
        lastCopyDst = d;
        lastCopyFrom = dstOffset;
        lastCopyTo = dstOffset + lengthBytes;
    }

    private void tally(final int kind, final long startNs, final long bytes) {
        final int at = 3 * kind;
        tallies[at] += bytes;
        tallies[at + 1] += System.nanoTime() - startNs;
        tallies[at + 2]++;
    }

    /**
     * The byte work done through this memory so far, timed on the calling thread (copies, checksums, fills and checks
     * of slot content: {@link ByteWork}). The difference of two snapshots is the work between them.
     */
    public ByteWork work() {
        return new ByteWork(tallied(COPY), tallied(CHECKSUM), tallied(CHECKSUM_COPIED),
            tallied(STAMP), tallied(VERIFY));
    }

    private ByteWork.Tally tallied(final int kind) {
        final int at = 3 * kind;
        return new ByteWork.Tally(tallies[at], tallies[at + 1], tallies[at + 2]);
    }

    @Override
    public void free(final MemoryRegion region) {
        final NativeRegion r = own(region);
        if (!live.remove(r)) {
            throw new IllegalStateException("region is not live in this memory: " + r);
        }
        r.markFreed(true);
        spare.add(r);
    }

    /** XXH3-64 of the bytes (hash4j), streamed through a heap buffer in 64 KiB pieces. */
    @Override
    public long checksum(final MemoryRegion region, final long offset, final long lengthBytes) {
        final NativeRegion r = own(region);
        final MemorySegment seg = r.segment();
        checkRange(seg, offset, lengthBytes);
        final long t0 = System.nanoTime();
        final HashStream64 stream = XXH3.hashStream();
        for (long at = 0; at < lengthBytes; at += scratch.length) {
            final int n = (int) Math.min(scratch.length, lengthBytes - at);
            MemorySegment.copy(seg, JAVA_BYTE, offset + at, scratch, 0, n);
            stream.putBytes(scratch, 0, n);
        }
        final long hash = stream.getAsLong();
        tally(r == lastCopyDst && offset >= lastCopyFrom && offset + lengthBytes <= lastCopyTo
            ? CHECKSUM_COPIED : CHECKSUM, t0, lengthBytes);
        return hash;
    }

    @Override
    public void write(final MemoryRegion dst, final long dstOffset, final byte[] src, final int srcOffset,
                      final int length) {
        final MemorySegment seg = own(dst).segment();
        checkRange(seg, dstOffset, length);
        MemorySegment.copy(src, srcOffset, seg, JAVA_BYTE, dstOffset, length);
    }

    @Override
    public void read(final MemoryRegion src, final long srcOffset, final byte[] dst, final int dstOffset,
                     final int length) {
        final MemorySegment seg = own(src).segment();
        checkRange(seg, srcOffset, length);
        MemorySegment.copy(seg, JAVA_BYTE, srcOffset, dst, dstOffset, length);
    }

    /** The segments of the live regions, in allocation order (for fixed-buffer registration). */
    public List<MemorySegment> liveSegments() {
        final List<MemorySegment> out = new ArrayList<>(live.size());
        for (final NativeRegion r : live) {
            out.add(r.segment());
        }
        return out;
    }

    /** Bytes taken from the arena so far (live and spare regions). */
    public long arenaBytes() {
        return arenaBytes;
    }

    @Override
    public void stamp(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final MemorySegment seg = own(region).segment();
        checkRange(seg, offset, lengthBytes);
        final long t0 = System.nanoTime();
        final long words = lengthBytes >>> 3;
        for (long w = 0; w < words; w++) {
            seg.set(JAVA_LONG_UNALIGNED, offset + (w << 3), Stamps.mix64(tag, w));
        }
        for (long p = words << 3; p < lengthBytes; p++) {
            seg.set(JAVA_BYTE, offset + p, Stamps.byteAt(tag, p));
        }
        tally(STAMP, t0, lengthBytes);
    }

    @Override
    public long firstMismatch(final MemoryRegion region, final long offset, final long lengthBytes, final long tag) {
        final MemorySegment seg = own(region).segment();
        checkRange(seg, offset, lengthBytes);
        final long t0 = System.nanoTime();
        final long at = firstWordMismatch(seg, offset, lengthBytes, tag);
        tally(VERIFY, t0, lengthBytes);
        return at;
    }

    private static long firstWordMismatch(final MemorySegment seg, final long offset, final long lengthBytes,
                                          final long tag) {
        final long words = lengthBytes >>> 3;
        for (long w = 0; w < words; w++) {
            if (seg.get(JAVA_LONG_UNALIGNED, offset + (w << 3)) != Stamps.mix64(tag, w)) {
                return firstByteMismatch(seg, offset, w << 3, Math.min(lengthBytes, (w + 1) << 3), tag);
            }
        }
        return firstByteMismatch(seg, offset, words << 3, lengthBytes, tag);
    }

    private static long firstByteMismatch(final MemorySegment seg, final long offset, final long from,
                                          final long to, final long tag) {
        for (long p = from; p < to; p++) {
            if (seg.get(JAVA_BYTE, offset + p) != Stamps.byteAt(tag, p)) {
                return offset + p;
            }
        }
        return -1;
    }

    private static void checkRange(final MemorySegment seg, final long offset, final long lengthBytes) {
        if (offset < 0 || lengthBytes < 0 || offset + lengthBytes > seg.byteSize()) {
            throw new IndexOutOfBoundsException("range [" + offset + ", +" + lengthBytes + ") outside region of "
                + seg.byteSize() + " B");
        }
    }

    /**
     * {@code region} as a region of this memory; refused (IllegalArgumentException) when another memory, or none,
     * allocated it. It reads only final fields, so device worker threads may call it.
     */
    @Override
    public NativeRegion resolve(final MemoryRegion region) {
        if (region instanceof NativeRegion r && r.owner() == this) {
            return r;
        }
        throw new IllegalArgumentException("not a region of this native memory: " + region);
    }

    private NativeRegion own(final MemoryRegion region) {
        checkOpen();
        final NativeRegion r = resolve(region);
        if (r.freed()) {
            throw new IllegalStateException("region used after free: " + r);
        }
        return r;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("native memory is closed");
        }
    }

    /**
     * Large regions are anonymous mappings advised to use transparent huge pages and touched once up front, so the
     * run does not pay first-touch page faults (on this project's VMs, faulting 5 GiB in 4 KiB pages took about
     * 24 s; with huge pages about 8 s); the arena unmaps them at close. Small regions, or any mapping that fails,
     * come from the arena's allocator. The segment over a mapping is made with {@code reinterpret}, a restricted
     * method: it is sized to exactly what was mapped and bound to the arena, which unmaps it once, at close.
     */
    @SuppressWarnings("restricted")
    private MemorySegment mapped(final long sizeBytes) {
        if (sizeBytes < HUGE_PAGE_BYTES || kernel == null) {
            return arena.allocate(sizeBytes, Alignment.BYTES);
        }
        final long address = kernel.mmap(sizeBytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0);
        if (address < 0) {
            return arena.allocate(sizeBytes, Alignment.BYTES);
        }
        kernel.madvise(address, sizeBytes, MADV_HUGEPAGE);
        final Kernel k = kernel;
        final MemorySegment segment = MemorySegment.ofAddress(address).reinterpret(sizeBytes, arena,
            s -> k.munmap(address, sizeBytes));
        for (long at = 0; at < sizeBytes; at += Alignment.BYTES) {
            segment.set(JAVA_BYTE, at, (byte) 0);
        }
        return segment;
    }

    /** Frees every region at once. Close devices that registered these regions first. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            live.clear();
            spare.clear();
            arena.close();
        }
    }
}
