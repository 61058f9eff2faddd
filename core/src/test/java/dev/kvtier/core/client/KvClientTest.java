package dev.kvtier.core.client;

import dev.kvtier.core.value.StoreSpec;
import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KvClientTest {

    /** Remembers what the client said, in order. */
    static final class Heard implements SaveListener {
        final List<String> log = new ArrayList<>();
        List<AllocationRef> accepted = List.of();

        @Override
        public void released(final long requestId) {
            log.add("released " + requestId);
        }

        @Override
        public void committed(final long requestId, final List<AllocationRef> acc, final List<AllocationRef> rej) {
            log.add("committed " + requestId);
            accepted = acc;
        }
    }

    private static List<StoreSpec> specs(final List<AllocationRef> refs, final int firstBlock) {
        final List<StoreSpec> out = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            out.add(StoreSpec.of(refs.get(i), List.of(firstBlock + i), SLOT));
        }
        return out;
    }

    @Test
    void shouldReleaseOnceStagedThenCommitAfterAllBatchesAndServeTheBytes() {
        final Rig rig = Rig.slots(32, 64); // staging batches of 4 slots, pool of 8
        final KvClient client = new KvClient(rig.config, rig.memory, rig.server, rig.events, 1000);
        final HeapMemory.Region kv = rig.gpu(16);
        final String[] names = new String[10];
        for (int i = 0; i < 10; i++) {
            names[i] = "r" + i;
        }
        final List<AllocationRef> refs = rig.claim(names);
        final Heard heard = new Heard();
        client.save(7, specs(refs, 3), kv, heard);
        assertEquals(List.of("released 7", "committed 7"), heard.log);
        assertEquals(3, rig.events.of(CoreEvent.BatchStaged.class).size(), "10 slots in batches of 4, 4, 2");
        assertEquals(refs, heard.accepted);
        final List<PrefixKey> keys = refs.stream().map(AllocationRef::key).toList();
        assertEquals(10, rig.server.lookup(Rig.MODEL, keys).prefixLength());
        final Rig.Loaded loaded = rig.load(refs);
        rig.device.completeAll();
        for (int i = 0; i < 10; i++) {
            assertTrue(loaded.uniform(i, 103 + i), "slot " + i + " holds block " + (3 + i));
        }
    }

    @Test
    void shouldHoldAReleaseBackWhileStagingIsFull() {
        // L1 of 2 slots: the second store must wait for a write, so staging stays full and request 2 waits.
        final CoreConfig config = CoreConfig.builder(SLOT).l2Bytes(64 * SLOT).l1Bytes(2 * SLOT)
            .stagingBatchBytes(SLOT).stagingPoolBytes(SLOT).build();
        final Rig rig = new Rig(config);
        final KvClient client = new KvClient(config, rig.memory, rig.server, rig.events, 1000);
        final HeapMemory.Region kv = rig.gpu(8);
        final Heard heard = new Heard();
        client.save(1, specs(rig.claim("a", "b", "c"), 0), kv, heard);
        client.save(2, specs(rig.claim("d"), 3), kv, heard);
        assertEquals(List.of("released 1"), heard.log.subList(0, 1));
        assertFalse(heard.log.contains("released 2"), "staging is held by request 1's waiting batch");
        rig.device.completeAll();
        assertEquals(List.of("released 1", "committed 1", "released 2", "committed 2"), heard.log);
    }

    @Test
    void shouldCommitOnlyAcceptedKeys() {
        final Rig rig = Rig.slots(8, 2);
        final KvClient client = new KvClient(rig.config, rig.memory, rig.server, rig.events, 1000);
        final HeapMemory.Region kv = rig.gpu(4);
        final List<AllocationRef> ab = rig.claim("a", "b");
        rig.claim("c"); // evicts a: its span is stale
        final Heard heard = new Heard();
        client.save(1, specs(ab, 0), kv, heard);
        assertEquals(List.of(ab.get(1)), heard.accepted);
        assertEquals(new CoreEvent.RequestCommitted(1, 1, 1), rig.events.of(CoreEvent.RequestCommitted.class)
            .getFirst());
    }
}
