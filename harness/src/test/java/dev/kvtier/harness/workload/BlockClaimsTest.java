package dev.kvtier.harness.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BlockClaimsTest {

    private static AllocationRef ref(final int block, final int step) {
        return new AllocationRef(new PrefixKey(block, step), step + 1L, block, 1);
    }

    @Test
    void shouldMatchASortedMapInOrderAppendedInsertedReplacedAndCleared() {
        final SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 100; round++) {
            final BlockClaims claims = new BlockClaims(round % 3 == 0 ? 0 : 64);
            final TreeMap<Integer, AllocationRef> model = new TreeMap<>();
            int next = 0;
            for (int step = 0; step < 300; step++) {
                final int op = random.nextInt(20);
                // Mostly ascending blocks (a request's claims), some lower (a reallocation) or repeated.
                final int block = op < 14 ? next++ : random.nextInt(next + 1);
                if (op == 19) {
                    claims.clear();
                    model.clear();
                } else {
                    final AllocationRef r = ref(block, step);
                    claims.put(block, r);
                    model.put(block, r);
                }
                assertEquals(model.size(), claims.size());
                assertEquals(model.isEmpty(), claims.isEmpty());
                assertEquals(model.get(block), claims.get(block), "round " + round + " step " + step);
            }
            final List<Integer> blocks = new ArrayList<>();
            final List<AllocationRef> refs = new ArrayList<>();
            for (int i = 0; i < claims.size(); i++) {
                blocks.add(claims.block(i));
                refs.add(claims.ref(i));
            }
            assertEquals(new ArrayList<>(model.keySet()), blocks, "block order, round " + round);
            assertEquals(new ArrayList<>(model.values()), refs);
            assertEquals(new ArrayList<>(model.values()), claims.values());
        }
    }

    @Test
    void shouldRefuseANullClaimAndAnIndexOutside() {
        final BlockClaims claims = new BlockClaims(4);
        assertNull(claims.get(0));
        assertTrue(claims.values().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> claims.put(0, null));
        claims.put(3, ref(3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> claims.block(1));
        assertThrows(IndexOutOfBoundsException.class, () -> claims.ref(-1));
    }
}
