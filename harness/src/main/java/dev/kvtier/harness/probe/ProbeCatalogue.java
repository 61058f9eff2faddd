package dev.kvtier.harness.probe;

import static dev.kvtier.harness.probe.Probe.any;
import static dev.kvtier.harness.probe.Probe.fact;
import static dev.kvtier.harness.probe.Probe.on;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.DiscardReason;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.util.Distinct;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every coverage probe, in catalogue order: the rare paths of the storage core (docs/design/STORAGE-CORE.md) that a
 * whole-system run should reach, so that an exploration can say which of them its seeds reached and a scenario can
 * require some ({@code [coverage] required}). The names are stable: summaries, {@code explore merge --require} and
 * scenarios use them. FoundationDB's simulator keeps code probes the same way, but ours sit outside the system under
 * test.
 */
public final class ProbeCatalogue {
    /** Facts the simulator reports (see {@link Probe.Source#FACT}). */
    public static final String FAULT_SPIKE = "fault.spike";
    public static final String FAULT_CORRUPTION = "fault.corruption";
    public static final String FAULT_MISDIRECT = "fault.misdirect";
    public static final String FAULT_SHORT_WRITE = "fault.short-write";
    public static final String FAULT_INDEX_FLIP = "fault.index-flip";
    public static final String FAULT_INDEX_LOST = "fault.index-lost-write";
    public static final String CRASH_TORN_DATA = "crash.torn-data-page";
    public static final String CRASH_TORN_INDEX = "crash.torn-index-page";
    public static final String CRASH_GARBLED_INDEX = "crash.garbled-index-page";
    public static final String IO_REORDERED = "io.reordered";
    public static final String INDEX_LATER_AT_END = "index.later-record-at-end";
    public static final String INDEX_STALE_AT_END = "index.stale-record-at-end";
    public static final String LOAD_REWRITTEN = "load.rewritten-content";
    public static final String LOOKUP_OTHER_MODEL = "lookup.other-model";
    public static final String LOAD_UNCOVERED = "load.uncovered-slot";

    private static final List<Probe> ALL = List.copyOf(build());
    private static final Map<String, Probe> BY_NAME = byName(ALL);

    private ProbeCatalogue() {}

    /** Every probe, in catalogue order. */
    public static List<Probe> all() {
        return ALL;
    }

    /** The probe named {@code name}, or null. */
    public static Probe get(final String name) {
        return BY_NAME.get(name);
    }

    private static Map<String, Probe> byName(final List<Probe> probes) {
        final Map<String, Probe> out = new LinkedHashMap<>();
        for (final Probe p : probes) {
            if (out.put(p.name(), p) != null) {
                throw new IllegalStateException("two probes are named " + p.name());
            }
        }
        return out;
    }

    private static List<Probe> build() {
        final List<Probe> p = new ArrayList<>();
        l1(p);
        ring(p);
        store(p);
        load(p);
        client(p);
        index(p);
        faults(p);
        return p;
    }

    private static void l1(final List<Probe> p) {
        p.add(on(CoreEvent.EntryEvicted.class, "l1.evict.reserve", "an L1 entry was evicted to make room for a "
            + "reservation", (s, e) -> e.reason() == L1EvictReason.RESERVE));
        p.add(on(CoreEvent.EntryEvicted.class, "l1.evict.trim", "an L1 entry was evicted by the trim after a grouped "
            + "store", (s, e) -> e.reason() == L1EvictReason.TRIM));
        p.add(on(CoreEvent.EntryEvicted.class, "l1.evict.overlap", "an L1 entry was dropped because a new entry "
            + "overlapped it", (s, e) -> e.reason() == L1EvictReason.OVERLAP));
        p.add(on(CoreEvent.EntryEvicted.class, "l1.evict.headroom", "a promoted (headroom) entry was chosen as a "
            + "victim", (s, e) -> e.headroom() && e.reason() != L1EvictReason.OVERLAP));
        p.add(on(CoreEvent.EntryEvicted.class, "l1.evict.pending-write", "an entry left L1 while a pending L2 write "
            + "still owned its slice", (s, e) -> e.pendingWrite()));
        p.add(any(CoreEvent.MemoryWait.class, "l1.memory-wait", "an operation waited for memory held by pending "
            + "writes"));
        p.add(on(CoreEvent.Trimmed.class, "l1.trim.evicts", "a trim after a store evicted at least one entry",
            (s, e) -> e.evicted() > 0));
    }

    private static void ring(final List<Probe> p) {
        p.add(on(CoreEvent.RingWrapped.class, "ring.wrap.skip", "an allocation did not fit before the ring's end: the "
            + "tail was marked SKIP and head wrapped", (s, e) -> e.slotCount() > 0));
        p.add(on(CoreEvent.Allocated.class, "ring.alloc.multi-slot", "an allocation took more than one slot",
            (s, e) -> e.slotCount() > 1));
        for (final RingEvictReason r : RingEvictReason.values()) {
            p.add(on(CoreEvent.RingEvicted.class, "ring.evict." + kebab(r), "a chunk left the ring: "
                + ringMeaning(r), (s, e) -> e.reason() == r));
        }
        p.add(on(CoreEvent.RingEvicted.class, "ring.evict.leased", "a chunk leased by a load in flight was evicted "
            + "(its loads fail, LEASE_REVOKED)", (s, e) -> e.leases() > 0));
        p.add(on(CoreEvent.RingEvicted.class, "ring.evict.uncommitted", "a claimed, not yet committed chunk was "
            + "evicted", (s, e) -> !e.committed()));
        p.add(on(CoreEvent.AllocationSkipped.class, "alloc.skip.claimed", "a second writer was skipped: the key was "
            + "claimed and not committed", (s, e) -> e.reason() == SkipReason.CLAIMED));
        p.add(on(CoreEvent.AllocationSkipped.class, "alloc.skip.committed", "an allocation of an already committed "
            + "key was skipped", (s, e) -> e.reason() == SkipReason.COMMITTED));
        p.add(on(CoreEvent.AllocationSkipped.class, "alloc.skip.too-large", "an allocation larger than the ring was "
            + "skipped", (s, e) -> e.reason() == SkipReason.TOO_LARGE));
        p.add(on(CoreEvent.ClaimReleased.class, "alloc.claim-released", "an uncommitted writer claim was released",
            (s, e) -> e.released()));
        p.add(any(CoreEvent.LateCommit.class, "commit.late", "a commit arrived for an allocation no longer current "
            + "(a counted no-op)"));
        p.add(on(CoreEvent.CommitPending.class, "commit.waits-for-write", "a durable commit waited for pending L2 "
            + "writes over its ranges", (s, e) -> e.waitingWrites() > 0));
        p.add(any(CoreEvent.CommitRefused.class, "commit.refused", "a durable commit could not be made durable and "
            + "was refused"));
    }

    private static void store(final List<Probe> p) {
        for (final RejectReason r : RejectReason.values()) {
            p.add(on(CoreEvent.SpanRejected.class, "span.reject." + kebab(r), "the server boundary dropped a span: "
                + kebab(r).replace('-', ' '), (s, e) -> e.reason() == r));
        }
        p.add(on(CoreEvent.SpansCoalesced.class, "span.coalesced", "the boundary merged adjacent spans into fewer",
            (s, e) -> e.spansOut() < e.spansIn()));
        for (final SealReason r : SealReason.values()) {
            p.add(on(CoreEvent.BatchSealed.class, "seal." + kebab(r), "a write batch was sealed: "
                + kebab(r).replace('-', ' '), (s, e) -> e.reason() == r));
        }
        p.add(on(CoreEvent.MemoryWait.class, "seal.at-park", "a store parked for memory right after sealing its own "
            + "open write batch, with nothing left to evict (the memory it waits for is that batch's)",
            (s, e) -> s.sealedForMemory() == e.opId()));
        p.add(on(CoreEvent.BatchSealed.class, "write.chained", "a write batch was chained after an earlier pending "
            + "write over the same bytes (an overwrite in flight)", (s, e) -> e.dependsOn() > 0));
        p.add(on(CoreEvent.WriteFinished.class, "write.failed", "an L2 write batch failed", (s, e) -> !e.ok()));
        p.add(on(CoreEvent.IoSubmitted.class, "io.queue-full", "data I/Os in flight reached concurrentIos (later "
            + "ones queue)", (s, e) -> s.dataInFlight() + 1 >= s.config().concurrentIos()));
    }

    private static void load(final List<Probe> p) {
        p.add(any(CoreEvent.LoadWaitsForWrite.class, "load.waits-for-write", "a load waited for a pending write "
            + "that overlapped one of its gaps"));
        p.add(on(CoreEvent.LoadRequested.class, "load.larger-than-l1", "a grouped load asked for more bytes than L1 "
            + "holds", (s, e) -> e.bytes() > s.config().l1Bytes()));
        p.add(on(CoreEvent.LoadGap.class, "load.multi-batch", "a load had more gaps than one read batch takes",
            (s, e) -> s.gaps(e.loadId())[0] + 1 > s.config().readBatchMax()));
        p.add(on(CoreEvent.LoadCompleted.class, "load.hit-and-gap", "a load was served partly from L1 and partly "
            + "from L2", (s, e) -> e.hitBytes() > 0 && e.hitBytes() < e.bytes()));
        for (final DiscardReason r : DiscardReason.values()) {
            p.add(on(CoreEvent.PromotionDiscarded.class, "promotion." + kebab(r), "a read landed but was not "
                + "promoted into L1: " + kebab(r).replace('-', ' '), (s, e) -> e.reason() == r));
        }
        for (final LoadFailure r : LoadFailure.values()) {
            if (r == LoadFailure.CLOSED) {
                // Dead: no core path fails a load as CLOSED (close() refuses while a load is in progress).
                continue;
            }
            p.add(on(CoreEvent.LoadFailed.class, "load.fail." + kebab(r), "a load failed: " + kebab(r).replace('-',
                ' '), (s, e) -> e.reason() == r));
        }
        p.add(any(CoreEvent.ChecksumMismatch.class, "checksum.mismatch", "a slot read back from L2 did not match "
            + "its checksum"));
    }

    private static void client(final List<Probe> p) {
        p.add(on(CoreEvent.SaveQueued.class, "client.multi-batch", "a request needed more than one staging batch",
            (s, e) -> e.batches() > 1));
        p.add(on(CoreEvent.SaveQueued.class, "client.one-batch-pool", "a request needed more than one staging batch "
            + "through a staging pool that holds only one (its batches take turns, its commit waits for the last)",
            (s, e) -> e.batches() > 1 && s.config().stagingPoolBytes() < 2 * s.config().stagingBatchBytes()));
        p.add(on(CoreEvent.SaveQueued.class, "client.part-slot-batch", "a request needed more than one staging batch "
            + "under a stagingBatchBytes that is not a whole number of slots (a batch holds the slots that fit whole)",
            (s, e) -> e.batches() > 1 && s.config().stagingBatchBytes() % s.config().slotBytes() != 0));
        p.add(on(CoreEvent.RequestCommitted.class, "client.partly-rejected", "an allocation was refused (not as "
            + "stale) in one staging batch of a save and admitted in another: the client must not commit it",
            (s, e) -> s.partlyRejected(e.requestId())));
        p.add(on(CoreEvent.StoreSent.class, "client.apart-in-source", "a store sent two consecutive spans adjacent in "
            + "the file but apart in staging (a staging layout other than the order sent): they must not be merged",
            (s, e) -> apartInSource(e.spans())));
        p.add(on(CoreEvent.SaveQueued.class, "client.duplicate-spec", "a save held the same spec twice (written "
            + "once)", (s, e) -> Distinct.hasDuplicates(e.specs())));
        p.add(on(CoreEvent.class, "client.staging-wait", "a save could not stage its first batch at once (staging "
            + "memory full, or saves queued before it): back-pressure",
            (s, e) -> s.stagePending() >= 0
                && !(e instanceof CoreEvent.BatchStaged b && b.requestId() == s.stagePending())));
    }

    private static void index(final List<Probe> p) {
        p.add(on(CoreEvent.IndexCheckpointed.class, "index.checkpoint", "the index log passed half its area and a "
            + "checkpoint was made (not the one every open makes)", (s, e) -> s.checkpointsThisLife() > 0));
        p.add(any(CoreEvent.IndexFailed.class, "index.failed", "an index I/O failed and persistence stopped until a "
            + "checkpoint succeeded"));
        p.add(on(CoreEvent.IndexFailed.class, "index.open-refused", "an index could not make its opening checkpoint "
            + "durable: the core takes no input", (s, e) -> s.checkpointsThisLife() == 0));
        p.add(on(CoreEvent.IndexOpened.class, "index.recovered-records", "a recovery replayed log records after its "
            + "checkpoint", (s, e) -> e.recoveredFromDisk() && e.records() > 0));
        p.add(any(CoreEvent.ChunkRecovered.class, "index.recovered-chunks", "a recovery rebuilt committed chunks"));
        p.add(on(CoreEvent.IndexOpenRequested.class, "crash.l1", "the core crashed and restarted in l1 commit mode",
            (s, e) -> restart(s, e) && s.config().commitMode() == CommitMode.L1));
        p.add(on(CoreEvent.IndexOpenRequested.class, "crash.durable", "the core crashed and restarted in durable "
            + "commit mode", (s, e) -> restart(s, e) && s.config().commitMode() == CommitMode.DURABLE));
        p.add(on(CoreEvent.IndexOpenRequested.class, "crash.repeated", "a run crashed a second time",
            (s, e) -> restart(s, e) && s.restarts() >= 1));
        p.add(on(CoreEvent.IndexOpenRequested.class, "crash.during-shutdown", "a crash hit between the shutdown "
            + "request and its completion",
            (s, e) -> restart(s, e) && s.shutdownRequested()
                && !s.shutdownCompleted()));
        p.add(on(CoreEvent.IndexOpenRequested.class, "crash.after-shutdown", "a crash hit after a completed "
            + "shutdown", (s, e) -> restart(s, e) && s.shutdownCompleted()));
        p.add(on(CoreEvent.ShutdownCompleted.class, "shutdown.failed", "a shutdown could not make everything "
            + "durable", (s, e) -> !e.durable()));
    }

    private static void faults(final List<Probe> p) {
        p.add(on(CoreEvent.IoCompleted.class, "fault.read-error", "a data read failed (EIO)",
            (s, e) -> e.op() == IoOp.READ && e.result() < 0));
        p.add(on(CoreEvent.IoCompleted.class, "fault.write-error", "a data write failed (EIO)",
            (s, e) -> e.op() == IoOp.WRITE && e.result() < 0));
        p.add(on(CoreEvent.IndexIoCompleted.class, "fault.index-error", "an index I/O failed (ENOSPC or EIO)",
            (s, e) -> e.result() < 0));
        p.add(fact(FAULT_SPIKE, "the device added a latency spike to an I/O"));
        p.add(fact(FAULT_CORRUPTION, "a data write completed but silently corrupted a page"));
        p.add(fact(FAULT_MISDIRECT, "a data write completed at another offset"));
        p.add(fact(FAULT_SHORT_WRITE, "a data write completed short: fewer bytes written than asked"));
        p.add(fact(FAULT_INDEX_FLIP, "an index write completed with a flipped byte on the media"));
        p.add(fact(FAULT_INDEX_LOST, "an index write completed but never reached the media (a lost write)"));
        p.add(fact(CRASH_TORN_DATA, "a crash tore a data page that was not durable (some sectors written)"));
        p.add(fact(CRASH_TORN_INDEX, "a crash tore an index page that was not durable (a torn record or "
            + "checkpoint)"));
        p.add(fact(CRASH_GARBLED_INDEX, "a crash left an index page that was not durable with a flipped byte (a "
            + "garbled record)"));
        p.add(fact(LOAD_REWRITTEN, "a load brought a block whose allocation held a rewritten version of its key's "
            + "content (engine.rewriteEvery), checked against that version"));
        p.add(fact(LOAD_UNCOVERED, "a load asked for a chunk committed with a slot no store covered "
            + "(engine.shortSpecEvery): the slot has no checksum, so the load must fail as corrupt"));
        p.add(fact(LOOKUP_OTHER_MODEL, "a lookup stopped at a key committed by another model (engine.models): same "
            + "prefix, other model's data"));
        p.add(fact(INDEX_LATER_AT_END, "after a crash, where recovery's replay stops the log holds an intact record of "
            + "the checkpoint's epoch with a later sequence number (a hole, then a record of a later lap)"));
        p.add(fact(INDEX_STALE_AT_END, "after a crash, where recovery's replay stops the log holds an intact record of "
            + "an earlier epoch with exactly the expected sequence number (only its epoch refuses it)"));
        p.add(fact(IO_REORDERED, "a device completed an I/O while one submitted before it was still in flight "
            + "(sim.reorder)"));
    }

    private static boolean restart(final ProbeState s, final CoreEvent.IndexOpenRequested e) {
        return e.recover() && s.opened();
    }

    private static String ringMeaning(final RingEvictReason r) {
        return switch (r) {
            case SPACE -> "the oldest chunk made room for an allocation";
            case WRAP -> "a chunk of the previous lap beyond a wrap's SKIP point";
            case WRITE_FAILED -> "its L2 write failed";
            case CORRUPT -> "a checksum mismatch evicted it";
            case NOT_DURABLE -> "its durable commit was refused";
        };
    }

    private static String kebab(final Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Two consecutive spans adjacent in the file and not in source: what only source adjacency keeps apart. */
    private static boolean apartInSource(final List<SpanPiece> spans) {
        for (int i = 1; i < spans.size(); i++) {
            final SpanPiece prev = spans.get(i - 1);
            final SpanPiece next = spans.get(i);
            if (prev.fileEnd() == next.fileOffset() && prev.srcEnd() != next.srcOffset()) {
                return true;
            }
        }
        return false;
    }
}
