package dev.kvtier.realio.memory;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeMemoryTest {

    @Test
    void shouldTallyEveryKindOfByteWorkAndTellAChecksumOfJustCopiedBytes() {
        try (NativeMemory m = new NativeMemory(1 << 20)) {
            final NativeRegion a = m.allocate("a", 65536);
            final NativeRegion b = m.allocate("b", 65536);
            final ByteWork before = m.work();
            m.stamp(a, 0, 32768, 7);
            m.copy(a, 0, b, 8192, 32768);
            m.checksum(b, 8192, 4096);
            m.checksum(b, 36864, 4096);
            m.checksum(b, 40960, 4096);
            m.checksum(a, 8192, 4096);
            assertEquals(-1, m.firstMismatch(a, 0, 32768, 7));
            final ByteWork w = m.work().minus(before);
            assertEquals(new ByteWork.Tally(32768, w.copy().ns(), 1), w.copy());
            assertEquals(32768, w.stamp().bytes());
            assertEquals(32768, w.verify().bytes());
            assertEquals(2, w.checksumCopied().operations(), "the two checksums inside [8192, 40960) of b");
            assertEquals(8192, w.checksumCopied().bytes());
            assertEquals(2, w.checksum().operations(), "past the copy's end, and in another region");
            assertTrue(w.copy().ns() > 0 && w.stamp().ns() > 0 && w.verify().ns() > 0, w.describe());
            assertEquals(w.copy().ns() + w.checksum().ns() + w.checksumCopied().ns() + w.stamp().ns()
                + w.verify().ns(), w.totalNs());
            m.copy(b, 0, a, 0, 4096);
            m.checksum(b, 8192, 4096);
            assertEquals(3, m.work().minus(before).checksum().operations(), "a later copy elsewhere ends the range");
        }
    }

    @Test
    void shouldAllocate4096AlignedRegions() {
        try (NativeMemory m = new NativeMemory(1 << 20)) {
            for (int i = 0; i < 5; i++) {
                final NativeRegion r = m.allocate("r" + i, 4096L * (i + 1));
                assertEquals(0, r.segment().address() % 4096);
                assertEquals(4096L * (i + 1), r.sizeBytes());
            }
        }
    }

    @Test
    void shouldFindTheFirstMismatchingByte() {
        try (NativeMemory m = new NativeMemory(1 << 20)) {
            final NativeRegion r = m.allocate("r", 16384);
            m.stamp(r, 4096, 8192, 42);
            assertEquals(-1, m.firstMismatch(r, 4096, 8192, 42));
            assertEquals(4096, m.firstMismatch(r, 4096, 8192, 43), "another tag differs at once");
            r.segment().set(JAVA_BYTE, 4096 + 5003, (byte) ~r.segment().get(JAVA_BYTE, 4096 + 5003));
            assertEquals(4096 + 5003, m.firstMismatch(r, 4096, 8192, 42));
            assertEquals(-1, m.firstMismatch(r, 4096, 5000, 42), "the prefix before it still matches");
        }
    }

    @Test
    void shouldStampRelativeToTheStampedStart() {
        try (NativeMemory m = new NativeMemory(1 << 20)) {
            final NativeRegion a = m.allocate("a", 8192);
            final NativeRegion b = m.allocate("b", 8192);
            m.stamp(a, 0, 4096, 9);
            m.stamp(b, 4096, 4096, 9);
            m.copy(b, 4096, a, 4096, 4096);
            assertEquals(-1, m.firstMismatch(a, 4096, 4096, 9), "a copy checks against its new start");
            assertEquals(-1L, a.segment().asSlice(0, 4096).mismatch(a.segment().asSlice(4096, 4096)));
            assertEquals(-1, m.firstMismatch(a, 0, 13, 9), "a range that is not whole words");
        }
    }

    @Test
    void shouldMixNeighbouringWordsAndTagsApart() {
        assertNotEquals(Stamps.mix64(1, 0), Stamps.mix64(1, 1));
        assertNotEquals(Stamps.mix64(1, 0), Stamps.mix64(2, 0));
        assertNotEquals(Stamps.mix64(0, 1), Stamps.mix64(1, 0));
        assertEquals(Stamps.mix64(5, 9), Stamps.mix64(5, 9));
    }

    @Test
    void shouldReuseAFreedRegionAndKeepTheBudget() {
        try (NativeMemory m = new NativeMemory(16384)) {
            final NativeRegion r = m.allocate("r", 8192);
            m.free(r);
            final NativeRegion again = m.allocate("again", 8192);
            assertSame(r.segment(), again.segment());
            assertEquals(8192, m.arenaBytes());
            m.allocate("s", 8192);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.allocate("t", 4096));
            assertTrue(e.getMessage().contains("16384"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> m.stamp(r, 0, 8, 1), "use after free");
        }
    }
}
