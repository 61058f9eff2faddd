package dev.kvtier.core.l2;

import dev.kvtier.core.value.AllocationRef;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AllocationsByIdTest {

    @Test
    void shouldMatchAnInsertionOrderedMapShortAndLong() {
        final SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 400; round++) {
            // Few ids stay in the array; many (past SCAN_MAX) go through the table too.
            final int ids = round % 2 == 0 ? 6 : 4 * AllocationsById.SCAN_MAX;
            final AllocationsById refs = new AllocationsById(round % 3 == 0 ? 0 : ids);
            final Map<Long, AllocationRef> model = new LinkedHashMap<>();
            for (int step = 0; step < 300; step++) {
                final long id = random.nextInt(ids);
                final AllocationRef ref = new AllocationRef(new PrefixKey(id, step), id, step, 1);
                final int op = random.nextInt(10);
                if (op < 4) {
                    refs.putIfAbsent(ref);
                    model.putIfAbsent(id, ref);
                } else if (op < 7) {
                    refs.put(ref);
                    model.put(id, ref);
                } else if (op < 9) {
                    refs.remove(id);
                    model.remove(id);
                }
                assertEquals(model.containsKey(id), refs.contains(id), "round " + round + " step " + step);
                assertEquals(model.size(), refs.size());
                if (step % 50 == 0) {
                    assertEquals(new ArrayList<>(model.values()), refs.values(), "order, round " + round);
                }
            }
            for (long id = 0; id < ids; id++) {
                assertEquals(model.containsKey(id), refs.contains(id));
            }
            final List<AllocationRef> seen = new ArrayList<>();
            refs.forEach(seen::add);
            assertEquals(new ArrayList<>(model.values()), seen, "insertion order, round " + round);
            final List<AllocationRef> released = new ArrayList<>();
            refs.releaseAll(released::add);
            assertEquals(seen, released);
            assertEquals(0, refs.size());
            for (long id = 0; id < ids; id++) {
                assertEquals(false, refs.contains(id));
            }
        }
    }

    @Test
    void shouldMatchAnInsertionOrderedMapWhileIdsAscendAndAfterOneDoesNot() {
        final SplittableRandom random = new SplittableRandom(23);
        for (int round = 0; round < 200; round++) {
            final AllocationsById refs = new AllocationsById(round % 2 == 0 ? 0 : 512);
            final Map<Long, AllocationRef> model = new LinkedHashMap<>();
            // Ascending ids (an operation's batch), each repeated now and then; from a round-dependent step on, any id.
            final int breakAt = round % 4 == 0 ? Integer.MAX_VALUE : random.nextInt(400);
            long next = 1;
            for (int step = 0; step < 400; step++) {
                final long id = step < breakAt ? (random.nextInt(8) == 0 ? next - 1 : next++) : random.nextInt(600);
                final AllocationRef ref = new AllocationRef(new PrefixKey(id, step), id, step, 1);
                final int op = random.nextInt(20);
                if (op < 12) {
                    refs.putIfAbsent(ref);
                    model.putIfAbsent(id, ref);
                } else if (op < 18) {
                    refs.put(ref);
                    model.put(id, ref);
                } else {
                    final long gone = random.nextLong(next + 1);
                    refs.remove(gone);
                    model.remove(gone);
                }
                final long probe = random.nextLong(next + 2);
                assertEquals(model.containsKey(probe), refs.contains(probe), "round " + round + " step " + step);
                assertEquals(model.size(), refs.size());
            }
            assertEquals(new ArrayList<>(model.values()), refs.values(), "order, round " + round);
        }
    }
}
