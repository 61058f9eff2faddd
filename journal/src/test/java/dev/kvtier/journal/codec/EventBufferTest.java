package dev.kvtier.journal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventBufferTest {
    /** The varint as the format defines it, a byte at a time. */
    private static byte[] reference(final long value) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            out.write((int) ((rest & 0x7F) | 0x80));
            rest >>>= 7;
        }
        out.write((int) rest);
        return out.toByteArray();
    }

    private static List<Long> values() {
        final List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE));
        for (int bits = 1; bits < Long.SIZE; bits++) {
            final long p = 1L << bits;
            values.add(p - 1);
            values.add(p);
            values.add(p + 1);
        }
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            values.add(random.nextLong() >>> random.nextInt(Long.SIZE));
        }
        return values;
    }

    @Test
    void shouldWriteEveryVarintAsTheFormatDefinesItAndReadItBack() throws EventFormatException {
        final EventBuffer buffer = new EventBuffer(1 << 20);
        final List<Long> values = values();
        for (final long v : values) {
            buffer.putVarLong(v);
            buffer.putByte(0x55); // a byte right after each varint: its end is where the format says
        }
        final ByteArrayOutputStream withMarks = new ByteArrayOutputStream();
        for (final long v : values) {
            final byte[] one = reference(v);
            withMarks.write(one, 0, one.length);
            withMarks.write(0x55);
        }
        assertArrayEquals(withMarks.toByteArray(), buffer.toByteArray());
        final EventCursor c = new EventCursor().wrap(buffer.array(), 0, buffer.length());
        for (final long v : values) {
            assertEquals(v, c.varLong());
            assertEquals(0x55, c.u8());
        }
        assertEquals(0, c.remaining());
    }

    @Test
    void shouldWriteZigZagValuesAsBefore() {
        final EventBuffer buffer = new EventBuffer(256);
        buffer.putZigZagLong(-1);
        buffer.putZigZagLong(63);
        buffer.putZigZagLong(-64);
        buffer.putZigZagLong(64);
        buffer.putZigZagInt(Integer.MIN_VALUE);
        assertArrayEquals(new byte[] {1, 126, 127, (byte) 0x80, 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            0x0F}, buffer.toByteArray());
    }
}
