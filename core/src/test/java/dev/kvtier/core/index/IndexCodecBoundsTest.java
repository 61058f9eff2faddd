package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.PrefixKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The index codec at its exact bounds: a record read at an offset with the buffer ending exactly at its end or one
 * byte short, whether a cut-off record asks for more bytes, and a chunk whose slot count claims more than its record
 * holds.
 */
class IndexCodecBoundsTest {
    private static final int AT = 40;

    private static IndexChunk chunk(final int startSlot, final int slots) {
        return new IndexChunk(new PrefixKey(3, 4), 1, 77, startSlot, slots, new long[slots], new boolean[slots]);
    }

    /** {@code record} copied to offset {@link #AT} of an array {@code spare} bytes longer than it needs. */
    private static byte[] placed(final byte[] record, final int spare) {
        final byte[] buf = new byte[AT + record.length + spare];
        System.arraycopy(record, 0, buf, AT, record.length);
        return buf;
    }

    @Test
    void shouldReadARecordThatEndsExactlyAtTheLimitAndNotOneByteShort() {
        final byte[] r = IndexCodec.commitRecord(2, 5, chunk(0, 2));
        final byte[] buf = placed(r, 0);
        final IndexCodec.Commit c = assertInstanceOf(IndexCodec.Commit.class,
            IndexCodec.readRecord(buf, AT, AT + r.length, 2, 5));
        assertEquals(0, c.chunk().startSlot(), "slot 0 is a valid start");
        assertEquals(2, c.chunk().slotCount());
        assertNull(IndexCodec.readRecord(buf, AT, AT + r.length - 1, 2, 5));
        assertNull(IndexCodec.readRecord(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES - 1, 2, 5));
    }

    @Test
    void shouldReadAnEvictRecordThatEndsExactlyAtTheLimit() {
        final byte[] r = IndexCodec.evictRecord(2, 6, 91);
        final byte[] buf = placed(r, 0);
        final IndexCodec.Evict e = assertInstanceOf(IndexCodec.Evict.class,
            IndexCodec.readRecord(buf, AT, buf.length, 2, 6));
        assertEquals(91, e.allocationId());
    }

    @Test
    void shouldAskForMoreBytesOnlyWhenARecordCouldContinuePastTheLimit() {
        final byte[] r = IndexCodec.commitRecord(2, 5, chunk(1, 3));
        final byte[] buf = placed(r, 8);
        assertTrue(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES - 1), "header cut off");
        assertTrue(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES), "body cut off");
        assertTrue(IndexCodec.incomplete(buf, AT, AT + r.length - 1), "one byte short");
        assertFalse(IndexCodec.incomplete(buf, AT, AT + r.length), "whole");
        assertFalse(IndexCodec.incomplete(placed(r, 0), AT, AT + r.length), "whole, at the array's end");
    }

    @Test
    void shouldNotAskForMoreBytesForALengthThatCannotBeARecord() {
        final byte[] buf = new byte[AT + 200];
        final ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(AT, IndexCodec.RECORD_HEADER_BYTES - 1);
        assertFalse(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES), "shorter than a header");
        b.putInt(AT, IndexCodec.RECORD_HEADER_BYTES);
        assertFalse(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES), "a bare header is whole");
        b.putInt(AT, 201);
        assertFalse(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES), "past the array's end");
        b.putInt(AT, 200);
        assertTrue(IndexCodec.incomplete(buf, AT, AT + IndexCodec.RECORD_HEADER_BYTES), "up to the array's end");
    }

    @Test
    void shouldRefuseAChunkWhoseSlotCountOverrunsItsRecord() {
        final byte[] r = IndexCodec.commitRecord(2, 5, chunk(1, 2));
        final ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN);
        final int countAt = IndexCodec.RECORD_HEADER_BYTES + IndexCodec.CHUNK_FIXED_BYTES - 4;
        assertEquals(2, b.getInt(countAt));
        b.putInt(countAt, 3);
        final CRC32C crc = new CRC32C();
        crc.update(r, 8, r.length - 8);
        b.putInt(4, (int) crc.getValue());
        assertNull(IndexCodec.readRecord(placed(r, 0), AT, AT + r.length, 2, 5));
        assertNull(IndexCodec.readRecord(placed(r, 64), AT, AT + r.length + 64, 2, 5),
            "the count is checked against the record, not the bytes after it");
        b.putInt(countAt, 0);
        crc.reset();
        crc.update(r, 8, r.length - 8);
        b.putInt(4, (int) crc.getValue());
        assertNull(IndexCodec.readRecord(r, 0, r.length, 2, 5), "a chunk of no slots");
    }

    @Test
    void shouldEndAChunkAfterItsLastSlot() {
        assertEquals(5, chunk(3, 2).endSlot());
        assertEquals(1, chunk(0, 1).endSlot());
    }
}
