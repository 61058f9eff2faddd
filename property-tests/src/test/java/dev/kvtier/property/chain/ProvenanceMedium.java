package dev.kvtier.property.chain;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import dev.kvtier.sim.memory.RunMap;
import java.util.Arrays;

/**
 * The data device's medium: provenance, as {@code SimDevice} keeps it (a {@link RunMap} per image), so a load can be
 * checked byte for byte against its key's content. A corrupted page gets a tag no key has ({@link #CORRUPT_TAG}).
 */
final class ProvenanceMedium implements Medium<RunMap> {
    /** Tags of corrupted pages: the sign bit set, which no key's tag has. */
    static final long CORRUPT_TAG = Long.MIN_VALUE;
    private static final long PAGE = 4096;

    private final long capacityBytes;
    private final RunMap visible = new RunMap();
    private final RunMap durable = new RunMap();

    ProvenanceMedium(final long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    @Override
    public RunMap capture(final IoRequest write) {
        final RunMap c = new RunMap();
        long at = 0;
        for (final IoSegment s : write.segments()) {
            c.copyFrom(((ProvRegion) s.region()).runs(), s.regionOffset(), at, s.lengthBytes());
            at += s.lengthBytes();
        }
        return c;
    }

    @Override
    public void put(final RunMap content, final long fileOffset, final long from, final long lengthBytes,
                    final boolean toDurable) {
        (toDurable ? durable : visible).copyFrom(content, from, fileOffset + from, lengthBytes);
    }

    @Override
    public void read(final IoRequest read) {
        long file = read.fileOffset();
        for (final IoSegment s : read.segments()) {
            ((ProvRegion) s.region()).runs().copyFrom(visible, file, s.regionOffset(), s.lengthBytes());
            file += s.lengthBytes();
        }
    }

    @Override
    public void revertToDurable() {
        visible.copyFrom(durable, 0, 0, capacityBytes);
    }

    @Override
    public void corrupt(final long pageOffset, final long salt) {
        visible.put(pageOffset, PAGE, CORRUPT_TAG | salt, 0);
        durable.put(pageOffset, PAGE, CORRUPT_TAG | salt, 0);
    }

    @Override
    public long[] storedPages() {
        final long[] pages = new long[Math.toIntExact(capacityBytes / PAGE)];
        final int[] n = {0};
        visible.forEachPiece(0, capacityBytes, (start, length, tag, pos) -> {
            for (long p = start / PAGE * PAGE; p < start + length; p += PAGE) {
                if (n[0] == 0 || pages[n[0] - 1] != p) {
                    pages[n[0]++] = p;
                }
            }
        });
        return Arrays.copyOf(pages, n[0]);
    }
}
