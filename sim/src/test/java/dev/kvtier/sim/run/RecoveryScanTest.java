package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.kvtier.core.index.IndexChunk;
import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.value.PrefixKey;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a recovery must replay, read again from the index device's bytes, and the two corners where it stops. */
class RecoveryScanTest {
    private static final long SLOT = 4096;
    private static final int SLOTS = 64;
    private static final IndexLayout LAYOUT = IndexLayout.forSlots(SLOTS);

    /** A device image: a checkpoint of epoch 2 whose log starts at {@code nextSeq}, then {@code records} in order. */
    private static byte[] image(final long nextSeq, final byte[]... records) {
        final byte[] device = new byte[Math.toIntExact(LAYOUT.deviceBytes())];
        final byte[] cp = IndexCodec.checkpoint(2, 1, nextSeq, SLOT, SLOTS, List.of());
        System.arraycopy(cp, 0, device, (int) LAYOUT.checkpointOffset(0), cp.length);
        int at = (int) LAYOUT.logOffset();
        for (final byte[] r : records) {
            System.arraycopy(r, 0, device, at, r.length);
            at += r.length;
        }
        return device;
    }

    private static byte[] commit(final long epoch, final long seq, final long allocationId) {
        return IndexCodec.commitRecord(epoch, seq, new IndexChunk(new PrefixKey(allocationId, 1), 0, allocationId,
            (int) allocationId, 1, new long[] {7}, new boolean[] {true}));
    }

    private static RecoveryScan scan(final byte[] device) {
        return RecoveryScan.of(LAYOUT, SLOT, (off, len) -> Arrays.copyOfRange(device, (int) (long) off,
            (int) (long) off + len));
    }

    @Test
    void shouldReplayTheIntactRecordsInSequenceAndStopAtAHole() {
        final RecoveryScan s = scan(image(10, commit(2, 10, 1), IndexCodec.evictRecord(2, 11, 1), commit(2, 12, 2),
            commit(2, 14, 3)));
        assertEquals(new RecoveryScan(3, true, false), s, "seq 14 where 13 is expected: a later record at the hole");
    }

    @Test
    void shouldSeeAStaleRecordOfAnEarlierEpochWithTheExpectedNumber() {
        assertEquals(new RecoveryScan(1, false, true), scan(image(10, commit(2, 10, 1), commit(1, 11, 2))));
        assertEquals(new RecoveryScan(1, false, false), scan(image(10, commit(2, 10, 1), commit(1, 12, 2))));
    }

    @Test
    void shouldFormatWithoutAnIntactCheckpoint() {
        final byte[] device = image(10, commit(2, 10, 1));
        device[(int) LAYOUT.checkpointOffset(0) + 20] ^= 1; // under the checkpoint CRC: it fails
        assertEquals(-1, scan(device).records());
        assertFalse(scan(new byte[Math.toIntExact(LAYOUT.deviceBytes())]).laterAtEnd());
    }
}
