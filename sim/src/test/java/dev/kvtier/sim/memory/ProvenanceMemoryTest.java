package dev.kvtier.sim.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ProvenanceMemoryTest {
    private static final long S = 4096;
    private final ProvenanceMemory memory = new ProvenanceMemory();

    @Test
    void shouldKeepEveryBytesProvenanceThroughPartialCopies() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        final ProvRegion b = memory.allocate("b", 8 * S);
        memory.stamp(a, 0, 2 * S, 11);
        memory.stamp(a, 2 * S, 2 * S, 22);
        memory.copy(a, S, b, 4 * S, 2 * S); // second half of 11, first half of 22
        assertEquals(11, b.runs().tagAt(4 * S));
        assertEquals(22, b.runs().tagAt(5 * S));
        assertEquals(-1, a.runs().firstMismatch(2 * S, 2 * S, 22));
        assertEquals(4 * S, memory.firstMismatch(b, 4 * S, S, 11), "position inside tag 11 is S, not 0");
        memory.copy(b, 4 * S, a, 0, S);
        assertEquals(0, memory.firstMismatch(a, 0, 2 * S, 11), "a holds 11 from position S, not from 0");
    }

    @Test
    void shouldReportUnwrittenBytesAsMismatches() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        memory.stamp(a, 0, S, 5);
        assertEquals(S, memory.firstMismatch(a, 0, 2 * S, 5));
        assertEquals(0, a.runs().tagAt(3 * S));
    }

    @Test
    void shouldOverwriteTheMiddleOfARun() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        memory.stamp(a, 0, 4 * S, 1);
        memory.stamp(a, S, S, 2);
        assertEquals(3, a.runs().runCount());
        assertEquals(2 * S, memory.firstMismatch(a, 2 * S, 2 * S, 1),
            "the tail keeps its original positions (from 2S), so it is not tag 1 from position 0");
        assertEquals(-1, memory.firstMismatch(a, 0, S, 1));
        assertEquals(1, a.runs().tagAt(3 * S));
    }

    @Test
    void shouldSimulate225GiBInLittleHeap() {
        final long slot = 2_359_296;
        final ProvRegion disk = memory.allocate("disk", 102_400 * slot);
        for (int i = 0; i < 102_400; i++) {
            memory.stamp(disk, i * slot, slot, i + 1);
        }
        assertEquals(102_400, disk.runs().runCount());
        assertEquals(-1, memory.firstMismatch(disk, 777 * slot, slot, 778));
    }

    @Test
    void shouldRejectOutOfRangeCopies() {
        final ProvRegion a = memory.allocate("a", S);
        assertThrows(IllegalArgumentException.class, () -> memory.copy(a, 0, a, S, S));
    }

    @Test
    void shouldChecksumEqualProvenanceAlikeWhereverItIs() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        final ProvRegion b = memory.allocate("b", 8 * S);
        memory.stamp(a, 0, 2 * S, 7);
        memory.copy(a, 0, b, 5 * S, 2 * S);
        assertEquals(memory.checksum(a, 0, 2 * S), memory.checksum(b, 5 * S, 2 * S),
            "same content relative to the start, different regions and offsets");
        memory.stamp(a, 2 * S, S, 7);
        assertEquals(memory.checksum(a, 2 * S, S), memory.checksum(a, 0, S), "tag 7 from position 0 both times");
        assertNotEquals(memory.checksum(a, 0, S), memory.checksum(a, S, S), "position S is not position 0");
    }

    @Test
    void shouldChecksumContentNotHowRunsAreSplit() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        final ProvRegion b = memory.allocate("b", 4 * S);
        memory.stamp(a, 0, 4 * S, 9);
        memory.stamp(b, 0, 4 * S, 9);
        memory.copy(a, S, b, S, S); // b now has three runs holding the same bytes as a's one
        assertEquals(3, b.runs().runCount());
        assertEquals(memory.checksum(a, 0, 4 * S), memory.checksum(b, 0, 4 * S));
    }

    @Test
    void shouldChecksumEveryDifferenceInProvenance() {
        final ProvRegion a = memory.allocate("a", 4 * S);
        memory.stamp(a, 0, 4 * S, 3);
        final long clean = memory.checksum(a, 0, 4 * S);
        final ProvRegion other = memory.allocate("other", 4 * S);
        memory.stamp(other, 0, 4 * S, 4);
        assertNotEquals(clean, memory.checksum(other, 0, 4 * S), "another tag");
        final ProvRegion sector = memory.allocate("sector", 4 * S);
        memory.stamp(sector, 0, 4 * S, 3);
        sector.runs().put(S + 512, 512, 3, 0);
        assertNotEquals(clean, memory.checksum(sector, 0, 4 * S), "one sector at a wrong position");
        final ProvRegion gap = memory.allocate("gap", 4 * S);
        memory.stamp(gap, 0, 4 * S, 3);
        gap.runs().clear(2 * S, 3 * S);
        assertNotEquals(clean, memory.checksum(gap, 0, 4 * S), "a never-written gap");
        final ProvRegion zero = memory.allocate("zero", 4 * S);
        memory.stamp(zero, 0, 4 * S, 3);
        zero.runs().put(2 * S, S, 0, 2 * S);
        assertNotEquals(memory.checksum(gap, 0, 4 * S), memory.checksum(zero, 0, 4 * S),
            "a gap differs from written content, even tag 0");
        assertEquals(memory.checksum(memory.allocate("e2", S), 0, S), memory.checksum(gap, 2 * S, S),
            "two never-written ranges of one length are alike");
        assertNotEquals(memory.checksum(gap, 2 * S, S), memory.checksum(gap, 2 * S, S / 2), "length counts");
    }

    @Test
    void shouldRoundTripBytesAndReadNeverWrittenBytesAsZero() {
        final ProvRegion a = memory.allocate("meta", 2 * S);
        final byte[] zeros = new byte[16];
        final byte[] out = new byte[16];
        out[3] = 42;
        memory.read(a, 100, out, 0, 16);
        assertArrayEquals(zeros, out, "no byte layer yet: zeros");
        assertFalse(a.holdsBytes());
        final byte[] in = "hello, metadata!".getBytes(StandardCharsets.US_ASCII);
        memory.write(a, S - 8, in, 0, in.length);
        assertTrue(a.holdsBytes());
        final byte[] back = new byte[in.length + 4];
        memory.read(a, S - 8, back, 2, in.length);
        assertArrayEquals(in, Arrays.copyOfRange(back, 2, 2 + in.length));
        memory.read(a, 0, out, 0, 16);
        assertArrayEquals(zeros, out, "bytes never written stay 0");
        assertEquals(0, a.runs().runCount(), "writing bytes leaves provenance alone");
    }

    @Test
    void shouldCopyBytesWithProvenance() {
        final ProvRegion a = memory.allocate("a", S);
        final ProvRegion b = memory.allocate("b", S);
        memory.write(b, 0, new byte[] {9, 9, 9, 9}, 0, 4);
        memory.write(a, 10, new byte[] {1, 2, 3}, 0, 3);
        memory.copy(a, 0, b, 0, 8);
        final byte[] out = new byte[16];
        memory.read(b, 0, out, 0, 16);
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, out,
            "a's first 8 bytes (zero) replaced b's nines");
        memory.copy(a, 8, b, 0, 8);
        memory.read(b, 0, out, 0, 8);
        assertArrayEquals(new byte[] {0, 0, 1, 2, 3, 0, 0, 0}, Arrays.copyOf(out, 8));
        final ProvRegion plain = memory.allocate("plain", S);
        memory.copy(plain, 0, b, 0, 8);
        memory.read(b, 0, out, 0, 8);
        assertArrayEquals(new byte[8], Arrays.copyOf(out, 8), "a region without bytes copies zeros");
    }

    @Test
    void shouldRejectBadByteRanges() {
        final ProvRegion a = memory.allocate("a", S);
        assertThrows(IllegalArgumentException.class, () -> memory.write(a, S - 1, new byte[2], 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> memory.write(a, 0, new byte[2], 1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> memory.read(a, 0, new byte[2], 0, 3));
        final ProvRegion huge = memory.allocate("l1-pool", 1L << 40);
        assertThrows(IllegalArgumentException.class, () -> memory.write(huge, 0, new byte[1], 0, 1),
            "bytes are for small metadata regions");
        memory.free(a);
        assertThrows(IllegalStateException.class, () -> memory.read(a, 0, new byte[1], 0, 1));
    }

    @Test
    void shouldResolveOnlyItsOwnRegions() {
        final ProvRegion mine = memory.allocate("mine", S);
        assertSame(mine, memory.resolve(mine));
        final ProvRegion theirs = new ProvenanceMemory().allocate("theirs", S);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> memory.resolve(theirs));
        assertTrue(e.getMessage().contains("theirs"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> memory.copy(theirs, 0, mine, 0, S),
            "the memory's own operations refuse it too");
    }
}
