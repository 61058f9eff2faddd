package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.PrefixKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The index's byte formats: round trips, and every kind of damage a reader must refuse. */
class IndexCodecTest {
    private static final IndexChunk CHUNK = new IndexChunk(new PrefixKey(0x1122334455667788L, -7L), 3, 42, 10, 3,
        new long[] {1, -2, Long.MAX_VALUE}, new boolean[] {true, false, true});

    private static void assertSameChunk(final IndexChunk expected, final IndexChunk actual) {
        assertEquals(expected.key(), actual.key());
        assertEquals(expected.modelId(), actual.modelId());
        assertEquals(expected.allocationId(), actual.allocationId());
        assertEquals(expected.startSlot(), actual.startSlot());
        assertEquals(expected.slotCount(), actual.slotCount());
        assertArrayEquals(expected.sums(), actual.sums());
        assertArrayEquals(expected.known(), actual.known());
    }

    @Test
    void shouldRoundTripACommitRecord() {
        final byte[] r = IndexCodec.commitRecord(5, 9, CHUNK);
        assertEquals(IndexCodec.RECORD_HEADER_BYTES + IndexCodec.chunkBytes(3), r.length);
        final IndexCodec.Record read = IndexCodec.readRecord(r, 0, r.length, 5, 9);
        final IndexCodec.Commit c = assertInstanceOf(IndexCodec.Commit.class, read);
        assertEquals(9, c.seq());
        assertSameChunk(CHUNK, c.chunk());
        assertEquals(r.length, IndexCodec.recordLength(r, 0));
    }

    @Test
    void shouldRoundTripAnEvictRecordAtAnOffset() {
        final byte[] r = IndexCodec.evictRecord(5, 10, 42);
        final byte[] buf = new byte[100 + r.length];
        System.arraycopy(r, 0, buf, 100, r.length);
        final IndexCodec.Evict e = assertInstanceOf(IndexCodec.Evict.class,
            IndexCodec.readRecord(buf, 100, buf.length, 5, 10));
        assertEquals(42, e.allocationId());
        assertEquals(10, e.seq());
    }

    @Test
    void shouldRefuseARecordOfAnotherEpochOrSequence() {
        final byte[] r = IndexCodec.commitRecord(5, 9, CHUNK);
        assertNull(IndexCodec.readRecord(r, 0, r.length, 4, 9));
        assertNull(IndexCodec.readRecord(r, 0, r.length, 5, 10));
        assertNull(IndexCodec.readRecord(r, 0, r.length, 5, 8));
    }

    @Test
    void shouldRefuseEveryFlippedByteOfARecord() {
        final byte[] r = IndexCodec.commitRecord(5, 9, CHUNK);
        for (int i = 0; i < r.length; i++) {
            final byte[] bad = r.clone();
            bad[i] ^= 0x10;
            assertNull(IndexCodec.readRecord(bad, 0, bad.length, 5, 9), "byte " + i);
        }
    }

    @Test
    void shouldRefuseATruncatedOrZeroedRecord() {
        final byte[] r = IndexCodec.evictRecord(5, 10, 42);
        for (int limit = 0; limit < r.length; limit++) {
            assertNull(IndexCodec.readRecord(r, 0, limit, 5, 10), "limit " + limit);
        }
        assertNull(IndexCodec.readRecord(new byte[4096], 0, 4096, 0, 0), "zeroes are no record, even for epoch 0");
    }

    @Test
    void shouldRoundTripACheckpoint() {
        final IndexChunk other = new IndexChunk(new PrefixKey(1, 2), 1, 43, 13, 1, new long[] {7},
            new boolean[] {true});
        final byte[] cp = IndexCodec.checkpoint(3, 4, 17, 8192, 64, List.of(CHUNK, other));
        final IndexCodec.CheckpointHeader h = IndexCodec.readHeader(cp);
        assertNotNull(h);
        assertEquals(3, h.epoch());
        assertEquals(4, h.checkpointSeq());
        assertEquals(17, h.nextRecordSeq());
        assertEquals(8192, h.slotBytes());
        assertEquals(64, h.slotCount());
        assertEquals(2, h.chunkCount());
        assertEquals(IndexCodec.chunkBytes(3) + IndexCodec.chunkBytes(1), h.bodyBytes());
        final List<IndexChunk> body = IndexCodec.readBody(cp, h);
        assertNotNull(body);
        assertEquals(2, body.size());
        assertSameChunk(CHUNK, body.get(0));
        assertSameChunk(other, body.get(1));
    }

    @Test
    void shouldRefuseEveryFlippedByteOfACheckpoint() {
        final byte[] cp = IndexCodec.checkpoint(3, 4, 17, 8192, 64, List.of(CHUNK));
        for (int i = 0; i < cp.length; i++) {
            final byte[] bad = cp.clone();
            bad[i] ^= 0x01;
            final IndexCodec.CheckpointHeader h = IndexCodec.readHeader(bad);
            if (h == null) {
                assertTrue(i < 12, "only magic or version drop the header: " + i);
                continue;
            }
            final int total = IndexCodec.CHECKPOINT_HEADER_BYTES + h.bodyBytes();
            final byte[] padded = new byte[Math.max(total, bad.length)];
            System.arraycopy(bad, 0, padded, 0, bad.length);
            assertNull(IndexCodec.readBody(padded, h), "byte " + i);
        }
    }

    @Test
    void shouldCoverTheReservedHeaderWordWithTheCrc() {
        final byte[] cp = IndexCodec.checkpoint(3, 4, 17, 8192, 64, List.of(CHUNK));
        final byte[] bad = cp.clone();
        bad[61] ^= 0x01;
        assertNull(IndexCodec.readBody(bad, IndexCodec.readHeader(bad)));
    }

    @Test
    void shouldRefuseAHeaderOfAnotherMagicOrVersionOrTooShort() {
        final byte[] cp = IndexCodec.checkpoint(3, 4, 17, 8192, 64, List.of());
        assertNotNull(IndexCodec.readHeader(cp));
        assertNull(IndexCodec.readHeader(new byte[IndexCodec.CHECKPOINT_HEADER_BYTES]));
        final byte[] v2 = cp.clone();
        v2[8] = 2;
        assertNull(IndexCodec.readHeader(v2));
        assertNull(IndexCodec.readHeader(new byte[10]));
    }

    @Test
    void shouldRejectAChunkWhoseArraysDoNotMatchItsSlotCount() {
        assertThrows(IllegalArgumentException.class,
            () -> new IndexChunk(new PrefixKey(1, 1), 1, 1, 0, 2, new long[1], new boolean[2]));
        assertThrows(IllegalArgumentException.class,
            () -> new IndexChunk(new PrefixKey(1, 1), 1, 1, 0, 2, new long[2], new boolean[1]));
    }

    @Test
    void shouldSizeTheLayoutForAFullRingOfOneSlotChunks() {
        for (final int slots : new int[] {1, 16, 91, 1000, 100_000}) {
            final IndexLayout l = IndexLayout.forSlots(slots);
            final long fullBody = (long) slots * IndexCodec.chunkBytes(1);
            assertTrue(IndexCodec.CHECKPOINT_HEADER_BYTES + fullBody <= l.checkpointBytes(), "slots " + slots);
            assertEquals(0, l.checkpointBytes() % 4096);
            assertEquals(0, l.logBytes() % 4096);
            assertEquals(2 * l.checkpointBytes(), l.logOffset());
            assertTrue(l.logBytes() >= IndexLayout.MIN_LOG_BYTES);
            assertTrue(l.logBytes() >= 4L * (IndexCodec.RECORD_HEADER_BYTES + IndexCodec.chunkBytes(slots)));
            assertEquals(l.logOffset() + l.logBytes(), l.deviceBytes());
        }
    }

    @Test
    void shouldEncodeRecordsInPlaceAsTheFormatSays() {
        final ByteBuffer expected = ByteBuffer.allocate(IndexCodec.commitRecordBytes(CHUNK))
            .order(ByteOrder.LITTLE_ENDIAN);
        expected.putInt(expected.capacity()).putInt(0).putLong(5).putLong(9).put(IndexCodec.COMMIT)
            .putLong(CHUNK.key().hi()).putLong(CHUNK.key().lo()).putInt(3).putLong(42).putInt(10).putInt(3);
        for (int i = 0; i < 3; i++) {
            expected.put((byte) (CHUNK.known()[i] ? 1 : 0)).putLong(CHUNK.sums()[i]);
        }
        final byte[] e = expected.array();
        final CRC32C crc = new CRC32C();
        crc.update(e, 8, e.length - 8);
        expected.putInt(4, (int) crc.getValue());
        final byte[] dirty = new byte[200];
        Arrays.fill(dirty, (byte) 0x5A);
        assertEquals(e.length, IndexCodec.putCommitRecord(5, 9, CHUNK, dirty, 17));
        assertArrayEquals(e, Arrays.copyOfRange(dirty, 17, 17 + e.length));
        assertEquals((byte) 0x5A, dirty[17 + e.length], "nothing past the record");
        assertArrayEquals(e, IndexCodec.commitRecord(5, 9, CHUNK));
        assertEquals(IndexCodec.EVICT_RECORD_BYTES, IndexCodec.putEvictRecord(5, 10, 42, dirty, 3));
        assertArrayEquals(IndexCodec.evictRecord(5, 10, 42), Arrays.copyOfRange(dirty, 3, 3
            + IndexCodec.EVICT_RECORD_BYTES));
        assertEquals(42, assertInstanceOf(IndexCodec.Evict.class, IndexCodec.readRecord(dirty, 3, dirty.length, 5,
            10)).allocationId());
    }

    @Test
    void shouldEncodeACheckpointIntoALargerReusedArray() {
        final byte[] whole = IndexCodec.checkpoint(2, 4, 6, 8192, 64, List.of(CHUNK, CHUNK));
        assertEquals(whole.length, IndexCodec.checkpointBytes(List.of(CHUNK, CHUNK)));
        final byte[] reused = new byte[whole.length + 50];
        Arrays.fill(reused, (byte) -1);
        assertEquals(whole.length, IndexCodec.putCheckpoint(2, 4, 6, 8192, 64, List.of(CHUNK, CHUNK), reused));
        assertArrayEquals(whole, Arrays.copyOf(reused, whole.length));
        final IndexCodec.CheckpointHeader h = IndexCodec.readHeader(reused);
        assertNotNull(h);
        final List<IndexChunk> body = IndexCodec.readBody(reused, h);
        assertNotNull(body);
        assertEquals(2, body.size());
        assertSameChunk(CHUNK, body.get(1));
    }
}
