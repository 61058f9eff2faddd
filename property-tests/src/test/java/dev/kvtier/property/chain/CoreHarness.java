package dev.kvtier.property.chain;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.client.StoreSpec;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l1.Entry;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadRange;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.property.support.Budget;
import dev.kvtier.sim.check.CapacityChecker;
import dev.kvtier.sim.check.CheckContext;
import dev.kvtier.sim.check.Invariant;
import dev.kvtier.sim.check.InvariantChecker;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.run.FanOutSink;
import dev.kvtier.sim.workload.WorkloadDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One core under test, built from the simulator's pieces (provenance memory, an event loop for virtual time, every
 * invariant family of {@link InvariantChecker#standard}) with a {@link ControlledDevice}, driven by the chain's
 * actions instead of a workload driver. It keeps what the checkers cannot see: which requests hold unsaved claims,
 * which allocations were committed, the lookups a later load may reuse, the loads in flight and the bytes each
 * must return (invariant 12, checked with {@link ProvenanceMemory#firstMismatch}). Every event is recorded with its
 * virtual time so a failing chain can be written as a journal.
 */
final class CoreHarness {
    /** Virtual time between two actions. */
    static final long STEP_NS = 1_000;
    private static final int MODEL = 1;
    private static final long LOAD_ID_BASE = 1;
    private static final long STORE_ID_BASE = 1L << 50;
    /** Engine KV and load destinations are simulated memory: they may be as large as the chain needs. */
    private static final long REGION_SLOTS = 1L << 20;

    /** An event and the virtual time it was emitted at. */
    record Recorded(long timeNs, CoreEvent event) { }

    /** Claims of one allocation request not yet saved or released. */
    record Claims(long requestId, List<AllocationRef> refs) { }

    private record PendingLoad(long loadId, List<LoadRange> ranges) { }

    final Knobs knobs;
    final CoreConfig config;
    private final EventLoop loop = new EventLoop(Long.MAX_VALUE);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final ControlledDevice device;
    private final KvServer server;
    private final KvClient client;
    private final InvariantChecker checker;
    private final CapacityChecker capacity;
    private List<Recorded> recorded = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private final MemoryRegion gpu;
    private final MemoryRegion dest;
    private final List<Claims> unsaved = new ArrayList<>();
    private final List<AllocationRef> leftover = new ArrayList<>();
    private final List<AllocationRef> committed = new ArrayList<>();
    private final List<List<AllocationRef>> remembered = new ArrayList<>();
    private final Map<Long, PendingLoad> loads = new LinkedHashMap<>();
    private final Map<Long, String> saves = new LinkedHashMap<>();
    private long nextRequestId = 1;
    private long nextLoadId = LOAD_ID_BASE;
    private long nextGpuSlot;
    private long nextDestSlot;
    private int drainsAsked;
    private int drainsDone;
    private int step;

    CoreHarness(final Knobs knobs) {
        this.knobs = knobs;
        this.config = knobs.config();
        this.device = new ControlledDevice(config.l2Bytes());
        final FanOutSink sink = new FanOutSink();
        this.server = new KvServer(config, memory, device, sink);
        this.checker = InvariantChecker.standard(config, loop, () -> server.engine().l1().entries().size(),
            server.engine()::residentBytes, Long.MAX_VALUE);
        this.capacity = new CapacityChecker(new CheckContext(config));
        sink.add(e -> recorded.add(new Recorded(loop.nowNs(), e))).add(checker)
            .add(new InvariantChecker(config, loop, List.of(capacity,
                new TrimAfterStoreChecker(server.engine().admission()), new ReadBatchChecker())));
        device.connect(server::onIoComplete);
        this.client = new KvClient(config, memory, server, sink, STORE_ID_BASE);
        this.gpu = memory.allocate("gpu", REGION_SLOTS * config.slotBytes());
        this.dest = memory.allocate("load-dest", REGION_SLOTS * config.slotBytes());
        Budget.chainStarted();
    }

    // ------------------------------------------------------------------ key universe

    /** The key of block {@code block} of prompt {@code prompt}: leading blocks are shared by every prompt. */
    PrefixKey key(final int prompt, final int block) {
        return block < knobs.sharedBlocks() ? new PrefixKey(0xA0, block + 1) : new PrefixKey(prompt + 1, block + 1);
    }

    List<PrefixKey> keys(final int prompt, final int count) {
        final List<PrefixKey> out = new ArrayList<>();
        for (int b = 0; b < count; b++) {
            out.add(key(prompt, b));
        }
        return out;
    }

    /** {@code p2.b3}, or {@code s.b0} for a shared block. */
    static String label(final PrefixKey key) {
        return (key.hi() == 0xA0 ? "s" : "p" + (key.hi() - 1)) + ".b" + (key.lo() - 1);
    }

    static String labels(final List<AllocationRef> refs) {
        return refs.stream().map(r -> label(r.key())).toList().toString();
    }

    /** The content of slot {@code slot} of {@code key}: the workload driver's tag for slot 0, distinct after. */
    static long tag(final PrefixKey key, final int slot) {
        return WorkloadDriver.tagOf(key) + 2L * slot;
    }

    // ------------------------------------------------------------------ state the actions read

    long nextRequestId() {
        return nextRequestId;
    }

    List<Claims> unsaved() {
        return unsaved;
    }

    List<AllocationRef> leftover() {
        return leftover;
    }

    List<AllocationRef> committed() {
        return committed;
    }

    List<List<AllocationRef>> remembered() {
        return remembered;
    }

    ControlledDevice device() {
        return device;
    }

    KvServer server() {
        return server;
    }

    /** Runs the steps in order. */
    CoreHarness run(final List<Step> steps) {
        for (final Step s : steps) {
            s.applyTo(this);
        }
        return this;
    }

    List<Recorded> recorded() {
        return recorded;
    }

    /**
     * Lets go of the recorded events and the step log (jqwik keeps chains, and so their states, for its report);
     * called once a chain passed. A failing chain keeps them for its journal.
     */
    void forget() {
        recorded = new ArrayList<>();
        log.clear();
    }

    List<String> log() {
        return log;
    }

    // ------------------------------------------------------------------ actions

    void allocate(final int promptChoice, final int countChoice, final int modelId) {
        act(() -> {
            final int prompt = promptChoice % knobs.prompts();
            final int count = Math.min(countChoice, knobs.maxKeysPerRequest());
            final long request = nextRequestId++;
            final List<AllocationResult> results = server.allocate(request, modelId, keys(prompt, count),
                knobs.slotsPerKey());
            EventAudit.allocate(recorded, request, modelId, keys(prompt, count), results);
            final List<AllocationRef> claimed = new ArrayList<>();
            for (final AllocationResult r : results) {
                if (r instanceof AllocationResult.Claimed c) {
                    claimed.add(c.ref());
                }
            }
            if (!claimed.isEmpty()) {
                unsaved.add(new Claims(request, claimed));
            }
            note("allocate req" + request + " model" + modelId + " " + keys(prompt, count).stream()
                .map(CoreHarness::label).toList() + ": claimed " + slots(claimed));
        });
    }

    void save(final int choice, final boolean duplicate, final boolean leaveLast) {
        act(() -> {
            if (unsaved.isEmpty()) {
                note("save: no unsaved request");
                return;
            }
            final Claims claims = unsaved.remove(choice % unsaved.size());
            final List<AllocationRef> refs = new ArrayList<>(claims.refs());
            if (leaveLast && refs.size() > 1) {
                leftover.add(refs.removeLast());
            }
            final List<StoreSpec> specs = new ArrayList<>();
            for (final AllocationRef ref : refs) {
                specs.add(StoreSpec.of(ref, stampBlocks(ref), config.slotBytes()));
            }
            if (duplicate) {
                specs.add(specs.getFirst());
            }
            saves.put(claims.requestId(), "queued");
            note("save req" + claims.requestId() + " " + labels(refs) + (duplicate ? " +duplicate spec" : ""));
            client.save(claims.requestId(), specs, gpu, listener());
            note("  req" + claims.requestId() + " save " + saves.get(claims.requestId()));
        });
    }

    void lookup(final int promptChoice, final int modelId) {
        act(() -> {
            final int prompt = promptChoice % knobs.prompts();
            final List<AllocationRef> prefix = server.lookup(modelId, keys(prompt, knobs.promptBlocks())).prefix();
            EventAudit.lookup(recorded, modelId, keys(prompt, knobs.promptBlocks()), prefix);
            if (!prefix.isEmpty()) {
                remembered.add(prefix);
            }
            note("lookup p" + prompt + " model" + modelId + ": prefix " + labels(prefix));
        });
    }

    void load(final int promptChoice, final int modelId) {
        act(() -> {
            final int prompt = promptChoice % knobs.prompts();
            final List<AllocationRef> prefix = server.lookup(modelId, keys(prompt, knobs.promptBlocks())).prefix();
            if (prefix.isEmpty()) {
                note("load p" + prompt + " model" + modelId + ": nothing cached");
                return;
            }
            remembered.add(prefix);
            startLoad(prefix);
        });
    }

    void loadRemembered(final int choice) {
        act(() -> {
            if (remembered.isEmpty()) {
                note("load again: no earlier lookup");
                return;
            }
            startLoad(remembered.get(choice % remembered.size()));
        });
    }

    void completeIo(final int choice) {
        act(() -> {
            if (device.inFlightCount() == 0) {
                note("complete: no I/O in flight");
                return;
            }
            final int index = knobs.inOrderDevice() ? 0 : choice % device.inFlightCount();
            note("complete " + device.describe(index));
            device.complete(index);
        });
    }

    void failIo(final int choice) {
        act(() -> {
            if (!knobs.faults()) {
                note("fail: faults are off in this chain");
                return;
            }
            if (device.inFlightCount() == 0) {
                note("fail: no I/O in flight");
                return;
            }
            final int index = knobs.inOrderDevice() ? 0 : choice % device.inFlightCount();
            note("fail (EIO) " + device.describe(index));
            device.fail(index);
        });
    }

    void drain() {
        act(() -> {
            drainsAsked++;
            server.drain(() -> drainsDone++);
            note("drain: " + (drainsDone == drainsAsked ? "drained at once" : "waits for writes"));
        });
    }

    void releaseLeftover(final int choice) {
        act(() -> {
            if (leftover.isEmpty()) {
                note("release: no left-over claim");
                return;
            }
            final AllocationRef ref = leftover.remove(choice % leftover.size());
            note("release claim " + slots(List.of(ref)) + ": released=" + server.release(ref));
        });
    }

    void releaseUnsaved(final int choice) {
        act(() -> {
            if (unsaved.isEmpty()) {
                note("release: no unsaved request");
                return;
            }
            final Claims claims = unsaved.remove(choice % unsaved.size());
            int released = 0;
            for (final AllocationRef ref : claims.refs()) {
                released += server.release(ref) ? 1 : 0;
            }
            note("release claims of req" + claims.requestId() + " " + labels(claims.refs()) + ": " + released
                + " released");
        });
    }

    void recommit(final int choice) {
        act(() -> {
            if (committed.isEmpty()) {
                note("commit again: nothing committed");
                return;
            }
            final AllocationRef ref = committed.get(choice % committed.size());
            final int before = recorded.size();
            final int[] visible = {-1};
            server.commit(List.of(ref), count -> visible[0] = count);
            final int n = visible[0];
            EventAudit.commit(recorded.subList(before, recorded.size()), List.of(ref), n);
            note("commit " + slots(List.of(ref)) + " again: committed " + n);
        });
    }

    /** {@code [p0.b0@slot3 (alloc 5)]}. */
    private static String slots(final List<AllocationRef> refs) {
        return refs.stream().map(r -> label(r.key()) + "@slot" + r.startSlot() + " (alloc " + r.allocationId() + ")")
            .toList().toString();
    }

    // ------------------------------------------------------------------ end of chain

    /**
     * Completes every I/O (oldest first, including those submitted meanwhile), drains, checks that every save
     * committed and every load finished, then loads every committed prefix of every prompt and checks its bytes,
     * and runs the checkers' end-of-run checks.
     */
    void finish() {
        settle();
        for (int p = 0; p < knobs.prompts(); p++) {
            for (int model = MODEL; model <= MODEL + 1; model++) {
                final List<AllocationRef> prefix = server.lookup(model, keys(p, knobs.promptBlocks())).prefix();
                if (!prefix.isEmpty()) {
                    startLoad(prefix);
                    settle();
                }
            }
        }
        checker.atEnd();
    }

    private void settle() {
        int completions = 0;
        while (device.inFlightCount() > 0) {
            device.complete(0);
            if (++completions > 1_000_000) {
                throw new AssertionError("I/O never settles: more than a million completions");
            }
        }
        drainsAsked++;
        server.drain(() -> drainsDone++);
        require(drainsDone == drainsAsked, "drain did not finish with no I/O in flight (" + drainsDone + " of "
            + drainsAsked + ")");
        require(loads.isEmpty(), "loads never finished: " + loads.keySet());
        for (final Map.Entry<Long, String> s : saves.entrySet()) {
            require(s.getValue().equals("committed"), "save of req" + s.getKey() + " ended " + s.getValue());
        }
        require(server.engine().memoryWaiters() == 0, server.engine().memoryWaiters() + " ops wait for memory");
        require(client.batchesInSaveQueue() == 0 && client.waitingForStaging() == 0, "client still holds "
            + client.batchesInSaveQueue() + " batches and " + client.waitingForStaging() + " waiting saves");
        require(server.engine().pendingWriteCount() == 0, "pending writes after drain");
    }

    // ------------------------------------------------------------------ internals

    private void act(final Runnable body) {
        step++;
        Budget.chainAction();
        loop.at(loop.nowNs() + STEP_NS, body);
        loop.run();
        crossCheck();
    }

    /** Checks the core's own inspection against the event-built shadows, after every action. */
    private void crossCheck() {
        final L1Access l1 = server.engine().l1();
        require(l1.pool().usedBytes() == capacity.leased(), "pool has " + l1.pool().usedBytes()
            + " B leased, reserve/free events say " + capacity.leased());
        require(server.engine().residentBytes() <= config.l1Bytes(), "resident " + server.engine().residentBytes()
            + " B > l1Bytes " + config.l1Bytes());
        long end = -1;
        for (final Entry e : l1.entries().inFileOrder()) {
            require(e.fileOffset() >= end, "entries overlap at " + e.fileOffset());
            end = e.fileEnd();
        }
    }

    private void require(final boolean condition, final String detail) {
        if (!condition) {
            throw new AssertionError("after step " + step + ": " + detail);
        }
    }

    private List<Integer> stampBlocks(final AllocationRef ref) {
        final List<Integer> blocks = new ArrayList<>();
        for (int j = 0; j < ref.slotCount(); j++) {
            final long block = nextGpuSlot++;
            memory.stamp(gpu, block * config.slotBytes(), config.slotBytes(), tag(ref.key(), j));
            blocks.add(Math.toIntExact(block));
        }
        return blocks;
    }

    private SaveListener listener() {
        return new SaveListener() {
            @Override
            public void released(final long requestId) {
                saves.put(requestId, "released");
            }

            @Override
            public void committed(final long requestId, final List<AllocationRef> accepted,
                                  final List<AllocationRef> rejected) {
                saves.put(requestId, "committed");
                committed.addAll(accepted);
                note("  req" + requestId + " committed " + labels(accepted) + " rejected " + labels(rejected));
            }
        };
    }

    /**
     * Loads part of an earlier lookup: from its key {@code keyChoice}, {@code slotChoice} slots in (a sub-range of
     * a multi-slot allocation, or of a coalesced L1 entry), {@code lengthChoice + 1} slots long, clamped to the
     * allocations that follow; destination offsets need not follow the file (every other range skips a slot).
     */
    void loadPart(final int choice, final int keyChoice, final int slotChoice, final int lengthChoice) {
        act(() -> {
            if (remembered.isEmpty()) {
                note("load part: no earlier lookup");
                return;
            }
            final List<AllocationRef> prefix = remembered.get(choice % remembered.size());
            final List<LoadRange> ranges = new ArrayList<>();
            int left = lengthChoice + 1;
            int skip = slotChoice;
            for (int k = keyChoice % prefix.size(); k < prefix.size() && left > 0; k++) {
                final AllocationRef ref = prefix.get(k);
                final int first = Math.min(skip, ref.slotCount() - 1);
                final int count = Math.min(left, ref.slotCount() - first);
                ranges.add(new LoadRange(ref, ref.fileOffset(config.slotBytes()) + first * config.slotBytes(),
                    count * config.slotBytes(), nextDestSlot * config.slotBytes()));
                nextDestSlot += count + (k % 2);
                left -= count;
                skip = 0;
            }
            startRanges(ranges, "part of " + labels(prefix));
        });
    }

    private void startLoad(final List<AllocationRef> prefix) {
        final List<LoadRange> ranges = new ArrayList<>();
        for (final AllocationRef ref : prefix) {
            ranges.add(LoadRange.whole(ref, config.slotBytes(), nextDestSlot * config.slotBytes()));
            nextDestSlot += ref.slotCount();
        }
        startRanges(ranges, labels(prefix));
    }

    private void startRanges(final List<LoadRange> ranges, final String what) {
        final long loadId = nextLoadId++;
        loads.put(loadId, new PendingLoad(loadId, ranges));
        server.load(loadId, ranges, dest, this::loaded);
        note("load" + loadId + " of " + what + (loads.containsKey(loadId) ? ": in flight" : ": done"));
    }

    private void loaded(final LoadResult result) {
        final PendingLoad load = loads.remove(result.loadId());
        if (load == null) {
            checker.report(Invariant.LIVENESS, "load " + result.loadId() + " finished twice or was never asked");
        }
        note("  load" + result.loadId() + (result.ok() ? " ok" : " failed " + result.failure()));
        if (!result.ok()) {
            return;
        }
        for (final LoadRange r : load.ranges()) {
            final int firstSlot = Math.toIntExact((r.fileOffset() - r.alloc().fileOffset(config.slotBytes()))
                / config.slotBytes());
            for (int i = 0; i < r.lengthBytes() / config.slotBytes(); i++) {
                final int j = firstSlot + i;
                final long at = r.destOffset() + i * config.slotBytes();
                final long bad = memory.firstMismatch(dest, at, config.slotBytes(), tag(r.alloc().key(), j));
                if (bad >= 0) {
                    checker.report(Invariant.LOAD_BYTES, "load " + result.loadId() + " of " + label(r.alloc().key())
                        + " (allocation " + r.alloc().allocationId() + ", slot " + j + ") returned bytes that are not"
                        + " the key's, first at byte " + (bad - at) + " of the slot");
                }
            }
        }
    }

    private void note(final String outcome) {
        log.add("step " + step + ": " + outcome);
    }

    /** The knobs and what each step did, for a failure report. */
    String report() {
        final StringBuilder out = new StringBuilder("knobs: ").append(knobs).append('\n');
        final int from = Math.max(0, log.size() - 200);
        for (int i = from; i < log.size(); i++) {
            out.append("  ").append(log.get(i)).append('\n');
        }
        out.append("last events (virtual time ns, event):\n");
        for (int i = Math.max(0, recorded.size() - 40); i < recorded.size(); i++) {
            out.append("  ").append(recorded.get(i).timeNs()).append(' ').append(recorded.get(i).event()).append('\n');
        }
        return out.toString();
    }
}
