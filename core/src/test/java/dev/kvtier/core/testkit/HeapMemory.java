package dev.kvtier.core.testkit;

import com.dynatrace.hash4j.hashing.Hashing;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import java.util.Arrays;

/** A test double of the memory port: every region is a heap byte array, so tests can check bytes exactly. */
public final class HeapMemory implements Memory {
    private long liveBytes;

    /** A heap region. */
    public static final class Region implements MemoryRegion {
        private final String name;
        final byte[] bytes;
        boolean freed;

        Region(final String name, final int size) {
            this.name = name;
            this.bytes = new byte[size];
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long sizeBytes() {
            return bytes.length;
        }

        public byte[] bytes() {
            return bytes;
        }

        /** Fills {@code [offset, offset + length)} with {@code value}. */
        public void fill(final long offset, final long length, final int value) {
            Arrays.fill(bytes, Math.toIntExact(offset), Math.toIntExact(offset + length), (byte) value);
        }

        /** The byte at {@code offset}. */
        public int at(final long offset) {
            return bytes[Math.toIntExact(offset)];
        }
    }

    @Override
    public Region allocate(final String name, final long sizeBytes) {
        Alignment.requireAligned("region size", sizeBytes);
        liveBytes += sizeBytes;
        return new Region(name, Math.toIntExact(sizeBytes));
    }

    @Override
    public void copy(final MemoryRegion src, final long srcOffset, final MemoryRegion dst, final long dstOffset,
                     final long lengthBytes) {
        final Region s = (Region) src;
        final Region d = (Region) dst;
        if (s.freed || d.freed) {
            throw new IllegalStateException("copy with a freed region");
        }
        System.arraycopy(s.bytes, Math.toIntExact(srcOffset), d.bytes, Math.toIntExact(dstOffset),
            Math.toIntExact(lengthBytes));
    }

    @Override
    public void free(final MemoryRegion region) {
        final Region r = (Region) region;
        if (r.freed) {
            throw new IllegalStateException("region freed twice: " + r.name());
        }
        r.freed = true;
        liveBytes -= r.sizeBytes();
    }

    @Override
    public long checksum(final MemoryRegion region, final long offset, final long lengthBytes) {
        return Hashing.xxh3_64().hashBytesToLong(((Region) region).bytes, Math.toIntExact(offset),
            Math.toIntExact(lengthBytes));
    }

    @Override
    public void write(final MemoryRegion dst, final long dstOffset, final byte[] src, final int srcOffset,
                      final int length) {
        System.arraycopy(src, srcOffset, ((Region) dst).bytes, Math.toIntExact(dstOffset), length);
    }

    @Override
    public void read(final MemoryRegion src, final long srcOffset, final byte[] dst, final int dstOffset,
                     final int length) {
        System.arraycopy(((Region) src).bytes, Math.toIntExact(srcOffset), dst, dstOffset, length);
    }

    public long liveBytes() {
        return liveBytes;
    }
}
