package dev.kvtier.journal.replay;

import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory port for replay: regions have a name and a size and hold nothing, and a copy checks its ranges and moves
 * no byte. The core never reads the data it moves, so its decisions do not depend on it.
 */
public final class ReplayMemory implements Memory {
    /** Alignment of every region, as the port promises. */
    private static final long ALIGN_BYTES = 4096;

    /** One region: a name and a size. */
    record Region(String name, long sizeBytes) implements MemoryRegion {
        Region {
            if (sizeBytes <= 0 || sizeBytes % ALIGN_BYTES != 0) {
                throw new IllegalArgumentException("region '" + name + "' of " + sizeBytes
                    + " B is not a positive multiple of " + ALIGN_BYTES);
            }
        }
    }

    private final List<Region> regions = new ArrayList<>();
    private ChecksumOracle oracle = () -> 0;
    private long copies;

    /**
     * Answers {@link #checksum} in replay. Replay holds no bytes, so every checksum is 0 (stored and read alike, so a
     * read verifies) except where the recording says a slot failed its check: then the oracle answers non-zero for
     * that slot, and the replayed core fails the load as the recorded one did.
     */
    @FunctionalInterface
    public interface ChecksumOracle {
        long next();
    }

    /** Installs the oracle (the replayer, which knows the recorded mismatches). */
    public void setOracle(final ChecksumOracle checksumOracle) {
        this.oracle = checksumOracle;
    }

    @Override
    public MemoryRegion allocate(final String name, final long sizeBytes) {
        final Region r = new Region(name, sizeBytes);
        regions.add(r);
        return r;
    }

    @Override
    public void copy(final MemoryRegion src, final long srcOffset, final MemoryRegion dst, final long dstOffset,
                     final long lengthBytes) {
        checkRange("source", src, srcOffset, lengthBytes);
        checkRange("destination", dst, dstOffset, lengthBytes);
        copies++;
    }

    @Override
    public void free(final MemoryRegion region) {
        if (!regions.remove(region)) {
            throw new IllegalStateException("free of a region this memory does not hold: " + region);
        }
    }

    @Override
    public long checksum(final MemoryRegion region, final long offset, final long lengthBytes) {
        checkRange("checksum", region, offset, lengthBytes);
        return oracle.next();
    }

    /** Index metadata is not replayed: writes are range-checked and dropped. */
    @Override
    public void write(final MemoryRegion dst, final long dstOffset, final byte[] src, final int srcOffset,
                      final int length) {
        checkRange("destination", dst, dstOffset, length);
    }

    /** Reads give zeros: a replayed index opens as a fresh device would (replay of a recovery is not supported). */
    @Override
    public void read(final MemoryRegion src, final long srcOffset, final byte[] dst, final int dstOffset,
                     final int length) {
        checkRange("source", src, srcOffset, length);
        java.util.Arrays.fill(dst, dstOffset, dstOffset + length, (byte) 0);
    }

    /** Regions allocated and not freed, in allocation order. */
    public List<MemoryRegion> regions() {
        return List.copyOf(regions);
    }

    /** Copies asked for so far. */
    public long copies() {
        return copies;
    }

    private void checkRange(final String what, final MemoryRegion region, final long offset, final long lengthBytes) {
        if (!(region instanceof Region)) {
            throw new IllegalArgumentException(what + " region " + region + " is not from this memory");
        }
        if (offset < 0 || lengthBytes < 0 || lengthBytes > region.sizeBytes() - offset) {
            throw new IllegalArgumentException(what + " range [" + offset + ", +" + lengthBytes + ") is outside "
                + region.name() + " of " + region.sizeBytes() + " B");
        }
    }
}
