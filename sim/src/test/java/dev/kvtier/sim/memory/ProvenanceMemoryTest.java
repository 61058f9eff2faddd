package dev.kvtier.sim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
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
}
