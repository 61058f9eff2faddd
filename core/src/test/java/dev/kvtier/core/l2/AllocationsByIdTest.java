package dev.kvtier.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LeasesTest {

    @Test
    void shouldMatchAnInsertionOrderedMapShortAndLong() {
        final SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 400; round++) {
            // Short loads stay in the array; long ones (past SCAN_MAX) go through the table too.
            final int ids = round % 2 == 0 ? 6 : 4 * Leases.SCAN_MAX;
            final Leases leases = new Leases(round % 3 == 0 ? 0 : ids);
            final Map<Long, AllocationRef> model = new LinkedHashMap<>();
            for (int step = 0; step < 300; step++) {
                final long id = random.nextInt(ids);
                final int op = random.nextInt(10);
                if (op < 6 && !model.containsKey(id)) {
                    final AllocationRef ref = new AllocationRef(new PrefixKey(id, -id), id, (int) id, 1);
                    leases.add(ref);
                    model.put(id, ref);
                } else if (op < 8) {
                    leases.remove(id);
                    model.remove(id);
                }
                assertEquals(model.containsKey(id), leases.contains(id), "round " + round + " step " + step);
                assertEquals(model.size(), leases.size());
            }
            for (long id = 0; id < ids; id++) {
                assertEquals(model.containsKey(id), leases.contains(id));
            }
            final List<AllocationRef> released = new ArrayList<>();
            leases.releaseAll(released::add);
            assertEquals(new ArrayList<>(model.values()), released, "lease order, round " + round);
            assertEquals(0, leases.size());
            for (long id = 0; id < ids; id++) {
                assertEquals(false, leases.contains(id));
            }
        }
    }
}
