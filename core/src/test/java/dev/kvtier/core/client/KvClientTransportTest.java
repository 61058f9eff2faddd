package dev.kvtier.core.client;

import dev.kvtier.core.value.StoreSpec;
import static dev.kvtier.core.testkit.Rig.SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.Rig;
import dev.kvtier.core.value.AllocationRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client's staging copies, its queue counters and its calls through a transport that delivers later (as the
 * simulator's and the real run's do): each delivery is marked, one store is in flight at a time, and staging goes on
 * while a store waits.
 */
class KvClientTransportTest {

    /** Calls and replies wait in one queue until the test delivers them, in order. */
    static final class QueuedTransport implements ServerTransport {
        record Pending(long callId, boolean toServer, Runnable run) {}

        final ArrayDeque<Pending> queue = new ArrayDeque<>();

        @Override
        public void toServer(final long callId, final Runnable input) {
            queue.add(new Pending(callId, true, input));
        }

        @Override
        public void toClient(final long callId, final Runnable reply) {
            queue.add(new Pending(callId, false, reply));
        }

        void deliverAll() {
            while (!queue.isEmpty()) {
                queue.poll().run().run();
            }
        }
    }

    private static List<StoreSpec> oneBlockEach(final List<AllocationRef> refs, final int... blocks) {
        final List<StoreSpec> out = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            out.add(StoreSpec.of(refs.get(i), List.of(blocks[i]), SLOT));
        }
        return out;
    }

    @Test
    void shouldCopyScatteredBlocksToStagingInPrefixOrder() {
        final Rig rig = Rig.slots(32, 64); // staging batches of 4 slots
        final KvClient client = new KvClient(rig.config, rig.memory, rig.server, rig.events, 1000);
        final List<AllocationRef> refs = rig.claim("a", "b", "c", "d");
        final int[] blocks = {5, 1, 2, 7}; // runs [5], [1, 2], [7]
        final KvClientTest.Heard heard = new KvClientTest.Heard();
        client.save(9, oneBlockEach(refs, blocks), rig.gpu(8), heard);
        final CoreEvent.SaveQueued queued = rig.events.of(CoreEvent.SaveQueued.class).getFirst();
        assertEquals(1, queued.batches());
        assertEquals(4 * SLOT, queued.bytes());
        assertEquals(refs, heard.accepted);
        final Rig.Loaded loaded = rig.load(refs);
        rig.device.completeAll();
        for (int i = 0; i < blocks.length; i++) {
            assertTrue(loaded.uniform(i, 100 + blocks[i]), "slot " + i + " holds block " + blocks[i]);
        }
    }

    @Test
    void shouldCountRequestsWaitingForStagingAndBatchesNotAcknowledged() {
        // Staging of one 1-slot batch and L1 of 2 slots: request 1's third store waits for an L2 write.
        final CoreConfig config = CoreConfig.builder(SLOT).l2Bytes(64 * SLOT).l1Bytes(2 * SLOT)
            .stagingBatchBytes(SLOT).stagingPoolBytes(SLOT).build();
        final Rig rig = new Rig(config);
        final KvClient client = new KvClient(config, rig.memory, rig.server, rig.events, 1000);
        final HeapMemory.Region kv = rig.gpu(8);
        final KvClientTest.Heard heard = new KvClientTest.Heard();
        assertEquals(0, client.waitingForStaging());
        assertEquals(0, client.batchesInSaveQueue());
        client.save(1, oneBlockEach(rig.claim("a", "b", "c"), 0, 1, 2), kv, heard);
        client.save(2, oneBlockEach(rig.claim("d"), 3), kv, heard);
        assertEquals(1, client.waitingForStaging(), "request 2 waits for staging");
        assertEquals(1, client.batchesInSaveQueue(), "request 1's last batch is in flight");
        rig.device.completeAll();
        assertEquals(0, client.waitingForStaging());
        assertEquals(0, client.batchesInSaveQueue());
    }

    @Test
    void shouldMarkEveryDeliveryAndKeepOneStoreInFlightWhileStagingTheRest() {
        // Staging batches of 1 slot, a pool of 3: all three batches stage at once, one store goes out at a time.
        final CoreConfig config = CoreConfig.builder(SLOT).l2Bytes(64 * SLOT).l1Bytes(16 * SLOT)
            .stagingBatchBytes(SLOT).stagingPoolBytes(3 * SLOT).build();
        final Rig rig = new Rig(config);
        final QueuedTransport transport = new QueuedTransport();
        final KvClient client = new KvClient(config, rig.memory, rig.server, transport, rig.events, 500);
        final List<AllocationRef> refs = rig.claim("a", "b", "c");
        final KvClientTest.Heard heard = new KvClientTest.Heard();
        client.save(1, oneBlockEach(refs, 0, 1, 2), rig.gpu(4), heard);
        assertEquals(3, rig.events.of(CoreEvent.BatchStaged.class).size(), "staging goes on while a store waits");
        assertEquals(List.of("released 1"), heard.log);
        assertEquals(1, rig.events.of(CoreEvent.BatchSent.class).size(), "one store in flight");
        assertEquals(1, transport.queue.size());
        assertTrue(rig.events.of(CoreEvent.StoreSent.class).isEmpty(), "the call has not reached the server");
        assertEquals(3, client.batchesInSaveQueue());

        transport.deliverAll();
        assertEquals(List.of("released 1", "committed 1"), heard.log);
        assertEquals(refs, heard.accepted);
        final List<CoreEvent.Delivered> delivered = rig.events.of(CoreEvent.Delivered.class);
        final List<CoreEvent.Delivered> expected = new ArrayList<>();
        for (int call = 0; call < 4; call++) { // three stores and a commit, each a call and a reply
            expected.add(new CoreEvent.Delivered(500 + 2L * call, true));
            expected.add(new CoreEvent.Delivered(500 + 2L * call + 1, false));
        }
        assertEquals(expected, delivered);
        assertEquals(List.of(500L, 501L, 502L),
            rig.events.of(CoreEvent.BatchSent.class).stream().map(CoreEvent.BatchSent::storeId).toList(),
            "store ids count up from the base");
        assertEquals(0, client.batchesInSaveQueue());
    }

    @Test
    void shouldNotMarkDeliveriesOfTheDirectTransport() {
        final Rig rig = Rig.slots(8, 16);
        final KvClient client = new KvClient(rig.config, rig.memory, rig.server, rig.events, 1000);
        final KvClientTest.Heard heard = new KvClientTest.Heard();
        client.save(1, oneBlockEach(rig.claim("a"), 0), rig.gpu(1), heard);
        assertEquals(List.of("released 1", "committed 1"), heard.log);
        assertTrue(rig.events.of(CoreEvent.Delivered.class).isEmpty());
        assertFalse(ServerTransport.DIRECT.marksDeliveries());
        assertTrue(new QueuedTransport().marksDeliveries(), "a transport that delivers later marks its deliveries");
    }

    @Test
    void shouldReleaseAndCommitAnEmptySaveAtOnce() {
        final Rig rig = Rig.slots(8, 16);
        final KvClient client = new KvClient(rig.config, rig.memory, rig.server, new QueuedTransport(), rig.events,
            1000);
        final KvClientTest.Heard heard = new KvClientTest.Heard();
        client.save(4, List.of(), rig.gpu(1), heard);
        assertEquals(List.of("released 4", "committed 4"), heard.log);
        assertEquals(List.of(new CoreEvent.RequestReleased(4)), rig.events.of(CoreEvent.RequestReleased.class));
        assertEquals(List.of(new CoreEvent.RequestCommitted(4, 0, 0)),
            rig.events.of(CoreEvent.RequestCommitted.class));
    }

    @Test
    void shouldRefuseANonPositiveSlotOrBatchSize() {
        final AllocationRef a = Rig.slots(4, 8).claimOne("a");
        final List<StoreSpec> specs = List.of(StoreSpec.of(a, List.of(0), SLOT));
        // Refused up front, not later by a span or batch of no bytes.
        final String why = "slotBytes and batchSlots must be positive";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StagingBuilder.build(specs, 0, 4)).getMessage()
            .startsWith(why));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StagingBuilder.build(specs, SLOT, 0))
            .getMessage().startsWith(why));
        assertEquals(1, StagingBuilder.build(specs, 1, 1).size(), "one byte and one slot are enough");
    }
}
