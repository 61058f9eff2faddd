package dev.kvtier.core.store;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.index.IndexLog;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.AllocationRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The commit path of the tiered store, in either mode. {@code l1}: allocations become visible at once (their records
 * go to the index log lazily). {@code durable}, a pipeline of four stages: a commit waits until every pending L2
 * write over its ranges has finished; the commits ready by then share one FLUSH of the data device (group commit);
 * their COMMIT records are appended to the index log and the log is made durable; only then are they published. A
 * commit whose flush or log write fails is refused: its allocations are evicted, never visible.
 */
final class CommitPipeline {
    /** A durable commit: waits for the L2 writes of its ranges, then for a data flush, then for its log records. */
    private static final class DurableCommit {
        final long id;
        final List<AllocationRef> refs;
        final Consumer<Integer> done;
        int waitingWrites;

        DurableCommit(final long id, final List<AllocationRef> refs, final Consumer<Integer> done) {
            this.id = id;
            this.refs = refs;
            this.done = done;
        }

        /** One write it waited for finished; true when none is left. */
        boolean writeFinished() {
            if (waitingWrites <= 0) {
                throw new IllegalStateException("commit " + id + " waits for no write");
            }
            waitingWrites--;
            return waitingWrites == 0;
        }
    }

    private final CommitMode mode;
    private final long slotBytes;
    private final EventSink sink;
    private final L2Directory directory;
    private final WriteBatches writes;
    private final IoQueue io;
    private final ArrayDeque<DurableCommit> readyToFlush = new ArrayDeque<>();
    private boolean dataFlushInFlight;
    private long nextCommitId = 1;
    private long durableCommits;
    private long refusedCommits;

    CommitPipeline(final CommitMode mode, final long slotBytes, final EventSink sink, final L2Directory directory,
                   final WriteBatches writes, final IoQueue io) {
        this.mode = mode;
        this.slotBytes = slotBytes;
        this.sink = sink;
        this.directory = directory;
        this.writes = writes;
        this.io = io;
    }

    /**
     * Commits allocations whose bytes a client stored (see the class comment for the two modes). An allocation that
     * is evicted or whose write fails meanwhile is a late commit. {@code done} gets how many became visible.
     */
    void commit(final List<AllocationRef> refs, final Consumer<Integer> done) {
        if (mode == CommitMode.L1) {
            done.accept(directory.commit(refs));
            return;
        }
        sink.emit(new CoreEvent.CommitRequested(refs));
        final DurableCommit c = new DurableCommit(nextCommitId++, List.copyOf(refs), done);
        for (final AllocationRef ref : refs) {
            final long from = ref.fileOffset(slotBytes);
            for (final WriteBatch w : writes.overlapping(from, from + ref.lengthBytes(slotBytes))) {
                c.waitingWrites++;
                w.awaitedBy(() -> {
                    if (c.writeFinished()) {
                        readyToFlush(c);
                    }
                });
            }
        }
        sink.emit(new CoreEvent.CommitPending(c.id, refs.size(), c.waitingWrites));
        if (c.waitingWrites == 0) {
            readyToFlush(c);
        }
    }

    long durableCommits() {
        return durableCommits;
    }

    long refusedCommits() {
        return refusedCommits;
    }

    private void readyToFlush(final DurableCommit c) {
        assert c.waitingWrites == 0 : "commit " + c.id + " still waits for " + c.waitingWrites + " writes";
        readyToFlush.add(c);
        flushForCommits();
    }

    /** One data flush for every durable commit whose writes have finished (group commit). */
    private void flushForCommits() {
        if (dataFlushInFlight || readyToFlush.isEmpty()) {
            return;
        }
        final List<DurableCommit> group = new ArrayList<>(readyToFlush);
        readyToFlush.clear();
        dataFlushInFlight = true;
        io.flush(result -> {
            assert dataFlushInFlight : "a commit flush completed that was not in flight";
            dataFlushInFlight = false;
            if (result < 0) {
                for (final DurableCommit c : group) {
                    refuse(c);
                }
            } else {
                logDurably(group);
            }
            flushForCommits();
        });
        assert readyToFlush.isEmpty() || dataFlushInFlight : "commits ready with no flush in flight";
    }

    /** Appends the group's COMMIT records (for allocations still current) and publishes once they are durable. */
    private void logDurably(final List<DurableCommit> group) {
        final IndexLog log = directory.indexLog();
        if (log == null) {
            throw new IllegalStateException("a durable commit needs the index log: open the index first");
        }
        for (final DurableCommit c : group) {
            for (final AllocationRef ref : c.refs) {
                directory.logCommit(ref);
            }
        }
        log.whenDurable(log.lastSeq(), ok -> {
            for (final DurableCommit c : group) {
                if (ok) {
                    durableCommits++;
                    c.done.accept(directory.publish(c.refs));
                } else {
                    refuse(c);
                }
            }
        });
    }

    private void refuse(final DurableCommit c) {
        for (final AllocationRef ref : c.refs) {
            if (directory.isCurrent(ref) && !directory.isCommitted(ref)) {
                refusedCommits++;
                sink.emit(new CoreEvent.CommitRefused(c.id, ref.key(), ref.allocationId()));
                directory.refuse(ref);
            }
        }
        c.done.accept(0);
    }
}
