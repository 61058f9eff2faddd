package dev.kvtier.property.chain;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import java.util.Arrays;

/**
 * The index device's medium: real bytes (the index log and checkpoints are bytes, moved through the memory port's
 * {@code read} and {@code write}, as {@code SimMetaDevice} does), a visible and a durable heap image.
 */
final class ByteMedium implements Medium<byte[]> {
    private static final int PAGE = 4096;

    private final Memory memory;
    private final byte[] visible;
    private final byte[] durable;

    ByteMedium(final Memory memory, final long capacityBytes) {
        this.memory = memory;
        this.visible = new byte[Math.toIntExact(capacityBytes)];
        this.durable = new byte[visible.length];
    }

    @Override
    public byte[] capture(final IoRequest write) {
        final byte[] c = new byte[Math.toIntExact(write.lengthBytes())];
        int at = 0;
        for (final IoSegment s : write.segments()) {
            memory.read(s.region(), s.regionOffset(), c, at, (int) s.lengthBytes());
            at += (int) s.lengthBytes();
        }
        return c;
    }

    @Override
    public void put(final byte[] content, final long fileOffset, final long from, final long lengthBytes,
                    final boolean toDurable) {
        System.arraycopy(content, (int) from, toDurable ? durable : visible, (int) (fileOffset + from),
            (int) lengthBytes);
    }

    @Override
    public void read(final IoRequest read) {
        int file = (int) read.fileOffset();
        for (final IoSegment s : read.segments()) {
            memory.write(s.region(), s.regionOffset(), visible, file, (int) s.lengthBytes());
            file += (int) s.lengthBytes();
        }
    }

    @Override
    public void revertToDurable() {
        System.arraycopy(durable, 0, visible, 0, visible.length);
    }

    @Override
    public void corrupt(final long pageOffset, final long salt) {
        for (int i = 0; i < PAGE; i++) {
            visible[(int) pageOffset + i] ^= (byte) 0xA5;
            durable[(int) pageOffset + i] ^= (byte) 0xA5;
        }
    }

    @Override
    public long[] storedPages() {
        final long[] pages = new long[visible.length / PAGE];
        int n = 0;
        for (int p = 0; p < visible.length; p += PAGE) {
            if (!Arrays.equals(visible, p, p + PAGE, new byte[PAGE], 0, PAGE)) {
                pages[n++] = p;
            }
        }
        return Arrays.copyOf(pages, n);
    }
}
