package dev.kvtier.journal.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer that {@link EventCodec} encodes into. Reused across events ({@link #reset}),
 * so the steady state allocates nothing; it grows by doubling up to {@code capacityMax} and a write beyond that is a
 * bug (an event larger than the format allows).
 */
public final class EventBuffer {
    private static final int INITIAL_BYTES = 256;

    private final int capacityMax;
    private byte[] bytes;
    private int position;

    /** A buffer that holds at most {@code capacityMax} bytes. */
    public EventBuffer(final int capacityMax) {
        if (capacityMax < INITIAL_BYTES) {
            throw new IllegalArgumentException("capacityMax " + capacityMax + " < " + INITIAL_BYTES);
        }
        this.capacityMax = capacityMax;
        this.bytes = new byte[INITIAL_BYTES];
    }

    /** Forgets the contents; keeps the storage. */
    public void reset() {
        position = 0;
    }

    /** Bytes written since the last {@link #reset}. */
    public int length() {
        return position;
    }

    /** The backing array; bytes {@code [0, length())} are valid until the next write. */
    public byte[] array() {
        return bytes;
    }

    /** A copy of the valid bytes. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, position);
    }

    /** Moves the write position back to {@code newPosition} (at most the current length). */
    public void truncate(final int newPosition) {
        if (newPosition < 0 || newPosition > position) {
            throw new IllegalArgumentException("truncate to " + newPosition + " of " + position);
        }
        position = newPosition;
    }

    /** Writes one byte. */
    public void putByte(final int value) {
        ensure(1);
        bytes[position++] = (byte) value;
    }

    /** Writes {@code length} bytes of {@code source} from {@code offset}. */
    public void putBytes(final byte[] source, final int offset, final int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, position, length);
        position += length;
    }

    /** Writes 4 bytes, little-endian. */
    public void putIntLe(final int value) {
        ensure(Integer.BYTES);
        for (int i = 0; i < Integer.BYTES; i++) {
            bytes[position++] = (byte) (value >>> (i * Byte.SIZE));
        }
    }

    /** Writes 8 bytes, little-endian. */
    public void putLongLe(final long value) {
        ensure(Long.BYTES);
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[position++] = (byte) (value >>> (i * Byte.SIZE));
        }
    }

    /** Writes an unsigned varint (7 bits a byte, low group first), the shortest form. */
    public void putVarLong(final long value) {
        ensure(EventLayout.VARLONG_BYTES_MAX);
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            bytes[position++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        bytes[position++] = (byte) rest;
    }

    /** Writes a signed long as a zigzag varint. */
    public void putZigZagLong(final long value) {
        putVarLong((value << 1) ^ (value >> 63));
    }

    /** Writes a signed int as a zigzag varint. */
    public void putZigZagInt(final int value) {
        putVarLong(Integer.toUnsignedLong((value << 1) ^ (value >> 31)));
    }

    /**
     * Writes a text as a varint byte count and UTF-8 bytes; at most {@code maxBytes}; no per-call garbage for ASCII.
     */
    public void putText(final String value, final int maxBytes) {
        final int chars = value.length();
        boolean ascii = chars <= maxBytes;
        for (int i = 0; ascii && i < chars; i++) {
            ascii = value.charAt(i) < 0x80;
        }
        if (ascii) {
            putVarLong(chars);
            ensure(chars);
            for (int i = 0; i < chars; i++) {
                bytes[position++] = (byte) value.charAt(i);
            }
            return;
        }
        final byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > maxBytes) {
            throw new IllegalArgumentException("text of " + utf8.length + " bytes > " + maxBytes + " bytes");
        }
        if (!new String(utf8, StandardCharsets.UTF_8).equals(value)) {
            throw new IllegalArgumentException("text is not well-formed UTF-16 (unpaired surrogate)");
        }
        putVarLong(utf8.length);
        putBytes(utf8, 0, utf8.length);
    }

    private void ensure(final int more) {
        final long needed = (long) position + more;
        if (needed <= bytes.length) {
            return;
        }
        if (needed > capacityMax) {
            throw new IllegalArgumentException("encoded size " + needed + " bytes exceeds " + capacityMax + " bytes");
        }
        final long grown = Math.max(needed, Math.min((long) capacityMax, 2L * bytes.length));
        bytes = Arrays.copyOf(bytes, (int) grown);
    }
}
