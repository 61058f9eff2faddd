package dev.kvtier.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Distinct gives what a LinkedHashSet gives, whatever the elements' hash codes. */
class DistinctTest {
    /** An element whose hash code is chosen, so that unequal ones can share it. */
    private record Item(int id, int hash) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof Item other && other.id == id;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Test
    void shouldGiveTheListItselfWhenItsElementsAreDistinct() {
        final List<Integer> list = List.of(5, 3, 9, 1);
        assertSame(list, Distinct.inOrder(list));
        assertEquals(false, Distinct.hasDuplicates(list));
        assertSame(List.of(), Distinct.inOrder(List.of()));
    }

    @Test
    void shouldKeepTheFirstOccurrencesInOrderAsALinkedHashSetDoes() {
        final Random random = new Random(17);
        for (int round = 0; round < 500; round++) {
            final List<Item> list = new ArrayList<>();
            final int n = random.nextInt(40);
            final int ids = 1 + random.nextInt(60);
            final int hashes = 1 + random.nextInt(round % 2 == 0 ? 4 : 1000);
            for (int i = 0; i < n; i++) {
                final int id = random.nextInt(ids);
                list.add(new Item(id, Math.floorMod(id * 31, hashes)));
            }
            final List<Item> expected = new ArrayList<>(new LinkedHashSet<>(list));
            assertEquals(expected, Distinct.inOrder(list), "round " + round);
            assertEquals(expected.size() != list.size(), Distinct.hasDuplicates(list), "round " + round);
        }
    }
}
