package dev.kvtier.core.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EntryMapTest {
    private static Entry entry(final long fileOffset, final long lengthBytes) {
        return new Entry(fileOffset, lengthBytes, new Slice(fileOffset, lengthBytes), false);
    }

    @Test
    void shouldAnswerEveryEntryOverlappingARangeInFileOrderAndNoneInAGap() {
        final EntryMap map = new EntryMap();
        final Entry a = entry(0, 10);
        final Entry b = entry(10, 10);
        final Entry c = entry(30, 10);
        map.insert(c);
        map.insert(a);
        map.insert(b);
        assertEquals(List.of(a, b), map.overlapping(5, 12));
        assertEquals(List.of(a, b, c), map.overlapping(0, 40));
        assertEquals(List.of(), map.overlapping(20, 30), "the gap between b and c");
        assertEquals(List.of(), map.overlapping(40, 50), "past every entry");
        assertEquals(List.of(), map.overlapping(25, 25), "an empty range");
        assertEquals(List.of(c), map.overlapping(25, 35), "c starts inside");
        assertEquals(List.of(c), map.overlapping(35, 50), "c covers the start");
        assertEquals(List.of(b), map.overlapping(19, 20), "b's last byte");
        assertThrows(UnsupportedOperationException.class, () -> map.overlapping(0, 40).clear());
        assertThrows(UnsupportedOperationException.class, () -> map.overlapping(20, 30).clear());
        assertThrows(IllegalArgumentException.class, () -> map.overlapping(12, 5));
        assertThrows(IllegalStateException.class, () -> map.insert(entry(15, 10)), "overlaps b");
        assertTrue(map.overlapping(20, 30).isEmpty());
    }
}
