package dev.kvtier.journal.replay;

import dev.kvtier.core.l1.Entry;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.PendingWriteView;
import dev.kvtier.core.store.TieredStore;
import dev.kvtier.core.value.AllocationRef;
import java.util.Collection;
import java.util.List;

/**
 * A readable dump of a core's state, for replay's {@code --until}: L1 entries and pool, pending writes, I/O, the L2
 * ring and the directory. It only reads the core's inspection methods. Each list is cut at {@link #LINES_MAX} lines.
 */
public final class CoreState {
    /** Lines shown per list; the rest are counted. */
    public static final int LINES_MAX = 200;

    private CoreState() {}

    /** The state of {@code server} after recorded event {@code lastSequence}. */
    public static String describe(final KvServer server, final ReplayDevice device, final long lastSequence) {
        final StringBuilder b = new StringBuilder(4096);
        b.append("state after event ").append(lastSequence).append('\n');
        l1(b, server.tieredStore());
        pending(b, server.tieredStore().pendingWrites());
        io(b, server.tieredStore(), device.inFlight());
        ring(b, server.directory());
        return b.toString();
    }

    private static void l1(final StringBuilder b, final TieredStore tiered) {
        final L1Access l1 = tiered.l1();
        final Collection<Entry> entries = l1.entries().inFileOrder();
        b.append("L1: ").append(entries.size()).append(" entries, resident ").append(tiered.residentBytes())
            .append(" B, pool used ").append(l1.pool().usedBytes()).append(" B of ")
            .append(l1.pool().capacityBytes()).append(" B, memory waiters ").append(tiered.memoryWaiters())
            .append('\n');
        int shown = 0;
        for (final Entry e : entries) {
            if (shown++ == LINES_MAX) {
                more(b, entries.size() - LINES_MAX);
                break;
            }
            b.append("  entry fileOffset=").append(e.fileOffset()).append(" lengthBytes=").append(e.lengthBytes())
                .append(" poolOffset=").append(e.slice().poolOffset()).append(" headroom=").append(e.headroom())
                .append(" pendingWrites=").append(e.slice().pendingWrites()).append('\n');
        }
    }

    private static void pending(final StringBuilder b, final List<PendingWriteView> writes) {
        b.append("pending writes: ").append(writes.size()).append('\n');
        for (int i = 0; i < writes.size(); i++) {
            if (i == LINES_MAX) {
                more(b, writes.size() - LINES_MAX);
                break;
            }
            final PendingWriteView w = writes.get(i);
            b.append("  batch ").append(w.batchId()).append(" store=").append(w.storeId()).append(" fileOffset=")
                .append(w.fileOffset()).append(" lengthBytes=").append(w.lengthBytes()).append(" state=")
                .append(w.state()).append(" waitsFor=").append(w.unfinishedDeps()).append('\n');
        }
    }

    private static void io(final StringBuilder b, final TieredStore tiered, final List<IoRequest> inFlight) {
        b.append("I/O: in flight ").append(tiered.ioInFlight()).append(", queued ").append(tiered.ioQueued())
            .append(", writes completed ").append(tiered.writesCompleted()).append(", write errors ")
            .append(tiered.writeErrors()).append('\n');
        for (int i = 0; i < inFlight.size(); i++) {
            if (i == LINES_MAX) {
                more(b, inFlight.size() - LINES_MAX);
                break;
            }
            final IoRequest r = inFlight.get(i);
            b.append("  io ").append(r.ioId()).append(' ').append(r.op()).append(" fileOffset=")
                .append(r.fileOffset()).append(" lengthBytes=").append(r.lengthBytes()).append('\n');
        }
    }

    private static void ring(final StringBuilder b, final L2Directory directory) {
        final List<AllocationRef> live = directory.liveInAgeOrder();
        int committed = 0;
        for (final AllocationRef r : live) {
            committed += directory.isCommitted(r) ? 1 : 0;
        }
        b.append("ring: head ").append(directory.head()).append(" of ").append(directory.slotCount())
            .append(" slots, ").append(live.size()).append(" live chunks, evictions ")
            .append(directory.evictions()).append('\n');
        b.append("directory: ").append(committed).append(" committed keys, ").append(live.size() - committed)
            .append(" claimed, late commits ").append(directory.lateCommits()).append(" (oldest first)\n");
        for (int i = 0; i < live.size(); i++) {
            if (i == LINES_MAX) {
                more(b, live.size() - LINES_MAX);
                break;
            }
            final AllocationRef r = live.get(i);
            b.append("  chunk key=").append(r.key()).append(" allocationId=").append(r.allocationId())
                .append(" startSlot=").append(r.startSlot()).append(" slotCount=").append(r.slotCount())
                .append(directory.isCommitted(r) ? " committed" : " claimed").append(" leases=")
                .append(directory.leases(r)).append('\n');
        }
    }

    private static void more(final StringBuilder b, final int count) {
        b.append("  ... ").append(count).append(" more\n");
    }
}
