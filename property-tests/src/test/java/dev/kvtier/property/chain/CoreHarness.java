package dev.kvtier.property.chain;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.l1.Admission;
import dev.kvtier.core.l1.Entry;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.StoreSpec;
import dev.kvtier.harness.check.CapacityChecker;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.property.chain.ChainStats.Counter;
import dev.kvtier.property.support.Budget;
import dev.kvtier.sim.device.CrashOutcome;
import dev.kvtier.sim.device.SimMetaDevice;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.memory.ProvenanceMemory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One core under test, built from the simulator's pieces (provenance memory, an event loop for virtual time, every
 * invariant family of {@link InvariantChecker#standard}) with two {@link ControlledDevice}s: the L2 data device
 * (provenance) and the crash-safe index's device (bytes), both with a volatile write cache, driven by the chain's
 * actions instead of a workload driver. The commit mode is a knob. It keeps what the checkers cannot see: which
 * requests hold unsaved claims, which allocations were committed, the lookups a later load may reuse, the loads in
 * flight and the bytes each must return (invariant 12, checked with {@link ProvenanceMemory#firstMismatch}). Every
 * event is recorded with its virtual time so a failing chain can be written as a journal.
 *
 * <p>A {@link #crash} is power loss between two actions: both devices drop what was not durable (pages written, lost
 * or torn, drawn from the step's seed), the core, its client and every volatile thing the harness kept for them are
 * discarded, a new core is built on the same device bytes and opens its index with {@code recover = true}, its I/O
 * completed in order. Every per-core checker starts over ({@link InvariantChecker#restarted}); the
 * {@link DurabilityChecker} (invariant 15) lasts the chain and checks the recovered index at once; an optional sweep
 * then loads every recovered chunk. The chain's end completes all I/O and sweeps again.
 */
final class CoreHarness {
    /** Virtual time between two actions. */
    static final long STEP_NS = 1_000;
    private static final int MODEL = 1;
    private static final long LOAD_ID_BASE = 1;
    private static final long STORE_ID_BASE = 1L << 50;
    private static final long STORE_IDS_PER_LIFE = 1L << 44;
    /** Engine KV and load destinations are simulated memory: they may be as large as the chain needs. */
    private static final long REGION_SLOTS = 1L << 20;
    private static final long PAGE = 4096;
    private static final int MAX_COMPLETIONS = 1_000_000;
    /** Churn keys are {@code (CHURN_KEY_BASE + n, 1)}: no prompt's key, so no other step looks them up. */
    private static final long CHURN_KEY_BASE = 1L << 32;

    /** A deliberately broken harness or device, for the canary tests that prove the checks can fail. */
    enum Variant {
        /** Nothing broken. */
        HONEST,
        /** After a crash the new core formats its index ({@code open(recover = false)}) instead of recovering it. */
        WIPE_INDEX_ON_RESTART,
        /** Both devices complete every FLUSH without making anything durable. */
        FLUSH_PERSISTS_NOTHING,
        /** A corrupt step corrupts the data device but the model is not told (no exemption is recorded). */
        UNRECORDED_CORRUPTION,
        /** Saves stamp every slot with the content of the key's next slot, so no stored byte is the key's. */
        MISLABELED_CONTENT
    }

    /** An event and the virtual time it was emitted at. */
    record Recorded(long timeNs, CoreEvent event) {}

    /** Claims of one allocation request not yet saved or released. */
    record Claims(long requestId, List<AllocationRef> refs) {}

    private record PendingLoad(long loadId, List<LoadRange> ranges) {}

    final Knobs knobs;
    final CoreConfig config;
    private final Variant variant;
    private final EventLoop loop = new EventLoop(Long.MAX_VALUE);
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final ChainDevices devices;
    private final DurabilityChecker durability;
    private final InvariantChecker checker;
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
    private KvServer server;
    private KvClient client;
    private InvariantChecker extra;
    private CapacityChecker capacity;
    private LoadResult lastLoaded;
    private long nextRequestId = 1;
    private long nextLoadId = LOAD_ID_BASE;
    private long nextGpuSlot;
    private long nextDestSlot;
    private long corruptions;
    private long nextChurnKey;
    private boolean checkpointing;
    private int drainsAsked;
    private int drainsDone;
    private int step;

    CoreHarness(final Knobs knobs) {
        this(knobs, Variant.HONEST);
    }

    CoreHarness(final Knobs knobs, final Variant variant) {
        this.knobs = knobs;
        this.config = knobs.config();
        this.variant = variant;
        this.devices = new ChainDevices(new ControlledDevice<>("data", config.l2Bytes(),
            new ProvenanceMedium(config.l2Bytes())),
            new ControlledDevice<>("index",
                KvServer.indexLayout(config).deviceBytes(), new ByteMedium(memory,
                    KvServer.indexLayout(config).deviceBytes())));
        if (variant == Variant.FLUSH_PERSISTS_NOTHING) {
            devices.data.lieAboutFlush();
            devices.index.lieAboutFlush();
        }
        devices.connect(this::onIoComplete);
        this.durability = new DurabilityChecker(config.commitMode() == CommitMode.DURABLE);
        this.checker = InvariantChecker.standard(config, loop, () -> server.tieredStore().l1().entries().size(),
            () -> server.tieredStore().residentBytes(), Long.MAX_VALUE, 0, List.of(durability));
        this.gpu = memory.allocate("gpu", REGION_SLOTS * config.slotBytes());
        this.dest = memory.allocate("load-dest", REGION_SLOTS * config.slotBytes());
        Budget.chainStarted();
        ChainStats.add(Counter.CHAINS, 1);
        ChainStats.add(Counter.DURABLE_CHAINS, config.commitMode() == CommitMode.DURABLE ? 1 : 0);
        startCore(false);
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

    /** {@code p2.b3}, {@code s.b0} for a shared block, {@code c17} for a churn key. */
    static String label(final PrefixKey key) {
        if (key.hi() >= CHURN_KEY_BASE) {
            return "c" + (key.hi() - CHURN_KEY_BASE);
        }
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

    ChainDevices devices() {
        return devices;
    }

    KvServer server() {
        return server;
    }

    DurabilityChecker durability() {
        return durability;
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
            final List<Integer> choices = devices.choices(knobs.inOrderDevice());
            if (choices.isEmpty()) {
                note("complete: no I/O in flight");
                return;
            }
            final int position = choices.get(choice % choices.size());
            note("complete " + devices.describe(position));
            devices.complete(position);
        });
    }

    /** Completes every I/O of one device (the data device's or the index device's), oldest first, until none. */
    void completeAllOf(final boolean data) {
        act(() -> {
            final ControlledDevice<?> device = data ? devices.data : devices.index;
            int completions = 0;
            while (device.inFlightCount() > 0) {
                note("complete " + device.describe(0));
                device.complete(0);
                require(++completions <= MAX_COMPLETIONS, "the device never settles");
            }
        });
    }

    /** Completes up to {@code count} of the index device's I/Os, oldest first. */
    void completeIndexIo(final int count) {
        act(() -> {
            for (int i = 0; i < count && devices.index.inFlightCount() > 0; i++) {
                note("complete " + devices.index.describe(0));
                devices.index.complete(0);
            }
        });
    }

    void failIo(final int choice) {
        act(() -> {
            if (!knobs.faults()) {
                note("fail: faults are off in this chain");
                return;
            }
            final ControlledDevice<?> data = devices.data;
            if (data.inFlightCount() == 0) {
                note("fail: no data I/O in flight");
                return;
            }
            final int index = knobs.inOrderDevice() ? 0 : choice % data.inFlightCount();
            note("fail (EIO) " + data.describe(index));
            ChainStats.add(Counter.DATA_EIO, 1);
            data.fail(index, IoCompletion.EIO);
        });
    }

    /** Fails the index device's I/O in flight (it has at most one): ENOSPC for a write when asked, else EIO. */
    void failIndexIo(final boolean enospc) {
        act(() -> {
            if (!knobs.faults()) {
                note("fail index I/O: faults are off in this chain");
                return;
            }
            final ControlledDevice<?> index = devices.index;
            if (index.inFlightCount() == 0) {
                note("fail index I/O: none in flight");
                return;
            }
            final boolean full = enospc && index.inFlight(0).op() == IoOp.WRITE;
            note("fail (" + (full ? "ENOSPC" : "EIO") + ") " + index.describe(0));
            ChainStats.add(full ? Counter.INDEX_ENOSPC : Counter.INDEX_EIO, 1);
            index.fail(0, full ? SimMetaDevice.ENOSPC : IoCompletion.EIO);
        });
    }

    /**
     * Corrupts one 4 KiB page of the data device that holds written content (the {@code choice}-th, modulo how many
     * do), on the medium: reads and a later crash both see it. Every allocation live over it is exempt from the
     * durability check (outside the claim); its bytes must still never be served.
     */
    void corrupt(final int choice) {
        act(() -> {
            if (!knobs.corruption()) {
                note("corrupt: corruption is off in this chain");
                return;
            }
            final long[] pages = devices.data.medium().storedPages();
            if (pages.length == 0) {
                note("corrupt: no page written yet");
                return;
            }
            final long page = pages[choice % pages.length];
            devices.data.medium().corrupt(page, ++corruptions);
            ChainStats.add(Counter.CORRUPTIONS, 1);
            if (variant != Variant.UNRECORDED_CORRUPTION) {
                durability.corrupted(page, PAGE, config.slotBytes());
            }
            note("corrupt data page at " + page + " (slot " + page / config.slotBytes() + ")");
        });
    }

    /**
     * Power loss now, then a restart on the same devices (see the class comment); {@code sweep} loads every
     * recovered chunk right after the restart.
     */
    void crash(final long seed, final boolean sweep) {
        final SeededEntropy entropy = new SeededEntropy(seed);
        crash(ControlledDevice.PageFate.drawnFrom(entropy.child("data")),
            ControlledDevice.PageFate.drawnFrom(entropy.child("index")), "seed " + seed, sweep);
    }

    /** A crash whose pending pages meet the given fates (directed tests choose them). */
    void crash(final ControlledDevice.PageFate dataFate, final ControlledDevice.PageFate indexFate, final String what,
               final boolean sweep) {
        act(() -> {
            if (!knobs.crashes()) {
                note("crash: crashes are off in this chain");
                return;
            }
            final CrashOutcome data = devices.data.crash(dataFate);
            final CrashOutcome index = devices.index.crash(indexFate);
            countCrash(data, index);
            ChainStats.add(Counter.CRASHES_MID_CHECKPOINT, checkpointing ? 1 : 0);
            checkpointing = false;
            note("crash (" + what + "): data pages written/lost/torn " + data.pagesWritten() + "/"
                + data.pagesLost() + "/" + data.pagesTorn() + ", index " + index.pagesWritten() + "/"
                + index.pagesLost() + "/" + index.pagesTorn());
            durability.crashed();
            dropVolatileState();
            checker.restarted();
            startCore(variant != Variant.WIPE_INDEX_ON_RESTART);
            final long checkedBefore = durability.survivorsChecked();
            durability.recovered(checker.context(), server.directory()::isCommitted);
            ChainStats.add(Counter.SURVIVORS_CHECKED, durability.survivorsChecked() - checkedBefore);
            ChainStats.add(Counter.RECOVERED_CHUNKS, server.directory().liveChunks());
            note("  restarted: " + server.directory().liveChunks() + " chunks recovered, "
                + (durability.survivorsChecked() - checkedBefore) + " durable commits checked");
            if (sweep) {
                sweep("after crash " + durability.crashes());
            }
        });
    }

    /**
     * Churn: requests of fresh keys (no prompt's, so no other step looks them up), each allocated, saved, and I/O
     * completed oldest first until its save commits, until enough keys were saved to fill the ring many times and to
     * push the index log {@code laps} times past half its area, where it writes a checkpoint and starts a new lap;
     * with {@code midCheckpoint}, it then goes on until a checkpoint is under way and stops there. Requests hold
     * one key each ({@code oneKeyRequests}) or half the ring. Whatever I/O the last request left (index writes, the
     * checkpoint) stays in flight for the steps that follow. The chain's other steps are too few to reach a
     * checkpoint; this is how checkpoints meet crashes and index faults.
     */
    void churn(final int laps, final boolean midCheckpoint, final boolean oneKeyRequests) {
        act(() -> {
            final int perRequest = oneKeyRequests ? 1 : Math.max(1, config.l2Slots() / knobs.slotsPerKey() / 2);
            final long recordBytes = (long) IndexCodec.RECORD_HEADER_BYTES
                + IndexCodec.chunkBytes(knobs.slotsPerKey()) + IndexCodec.RECORD_HEADER_BYTES + 8;
            final long keys = laps * (KvServer.indexLayout(config).logBytes() / 2 / recordBytes + 1)
                + config.l2Slots();
            final long firstKey = nextChurnKey;
            final SaveListener quiet = quietListener();
            int requests = 0;
            while (nextChurnKey - firstKey < keys
                || (midCheckpoint && !checkpointing && nextChurnKey - firstKey < 2 * keys)) {
                churnRequest(perRequest, quiet);
                requests++;
            }
            note("churn: " + requests + " requests saved " + (nextChurnKey - firstKey) + " keys c" + firstKey + "..c"
                + (nextChurnKey - 1) + "; " + devices.inFlightCount() + " I/Os left in flight"
                + (checkpointing ? ", a checkpoint under way" : ""));
        });
    }

    private void churnRequest(final int count, final SaveListener quiet) {
        final List<PrefixKey> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            keys.add(new PrefixKey(CHURN_KEY_BASE + nextChurnKey++, 1));
        }
        final long request = nextRequestId++;
        final List<StoreSpec> specs = new ArrayList<>();
        for (final AllocationResult r : server.allocate(request, MODEL, keys, knobs.slotsPerKey())) {
            if (r instanceof AllocationResult.Claimed c) {
                specs.add(StoreSpec.of(c.ref(), stampBlocks(c.ref()), config.slotBytes()));
            }
        }
        saves.put(request, "queued");
        client.save(request, specs, gpu, quiet);
        int completions = 0;
        while (!saves.get(request).equals("committed")) {
            require(devices.inFlightCount() > 0, "churn req" + request + " waits with no I/O in flight");
            devices.complete(devices.oldest());
            require(++completions <= MAX_COMPLETIONS, "churn req" + request + " never commits");
        }
    }

    /** Records a save's progress without logging it (churn saves thousands). */
    private SaveListener quietListener() {
        return new SaveListener() {
            @Override
            public void released(final long requestId) {
                saves.put(requestId, "released");
            }

            @Override
            public void committed(final long requestId, final List<AllocationRef> accepted,
                                  final List<AllocationRef> rejected) {
                saves.put(requestId, "committed");
                auditAccepted(requestId, accepted);
            }
        };
    }

    /**
     * The device writes back one cached write on its own, as a drive destages its volatile cache: the oldest
     * completed, unflushed write of the data device ({@code choice} even) or the index device (odd) becomes durable.
     * Without this, an {@code l1}-mode core, which never flushes data, would lose nearly every write to a crash.
     */
    void destage(final int choice) {
        act(() -> {
            final ControlledDevice<?> device = choice % 2 == 0 ? devices.data : devices.index;
            note((choice % 2 == 0 ? "data" : "index") + " device destages "
                + (device.destageOldest() ? "its oldest cached write" : "nothing (no cached write)"));
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

    /**
     * Commits an allocation again. In {@code l1} mode the answer comes at once; in {@code durable} mode when the data
     * flush and the index write complete. Either way the count must be the number of Committed events it caused.
     */
    void recommit(final int choice) {
        act(() -> {
            if (committed.isEmpty()) {
                note("commit again: nothing committed");
                return;
            }
            final AllocationRef ref = committed.get(choice % committed.size());
            final List<Recorded> events = recorded;
            final int before = events.size();
            final int[] visible = {-1};
            server.commit(List.of(ref), count -> {
                visible[0] = count;
                EventAudit.commit(events.subList(before, events.size()), List.of(ref), count);
            });
            note("commit " + slots(List.of(ref)) + " again: " + (visible[0] < 0 ? "waits to be durable"
                : "committed " + visible[0]));
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
     * loads every committed chunk on its own (the sweep), and runs the checkers' end-of-run checks.
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
        sweep("at the end");
        for (final AllocationRef ref : durability.mustSurvive()) {
            if (!server.directory().isCommitted(ref)) {
                checker.report(Invariant.CRASH, "durable commit " + slots(List.of(ref)) + " survived the restart "
                    + "but is no longer committed, with no eviction");
            }
        }
        checker.atEnd();
    }

    private void settle() {
        completeAllIo();
        drainsAsked++;
        server.drain(() -> drainsDone++);
        require(drainsDone == drainsAsked, "drain did not finish with no I/O in flight (" + drainsDone + " of "
            + drainsAsked + ")");
        require(loads.isEmpty(), "loads never finished: " + loads.keySet());
        for (final Map.Entry<Long, String> s : saves.entrySet()) {
            require(s.getValue().equals("committed"), "save of req" + s.getKey() + " ended " + s.getValue());
        }
        require(server.tieredStore().memoryWaiters() == 0,
            server.tieredStore().memoryWaiters() + " ops wait for memory");
        require(client.batchesInSaveQueue() == 0 && client.waitingForStaging() == 0, "client still holds "
            + client.batchesInSaveQueue() + " batches and " + client.waitingForStaging() + " waiting saves");
        require(server.tieredStore().pendingWriteCount() == 0, "pending writes after drain");
    }

    /** Completes every I/O in flight, oldest first, including those submitted meanwhile. */
    private void completeAllIo() {
        int completions = 0;
        while (devices.inFlightCount() > 0) {
            devices.complete(devices.oldest());
            require(++completions <= MAX_COMPLETIONS, "I/O never settles: more than a million completions");
        }
    }

    /**
     * Loads every committed chunk on its own, completing I/O oldest first until the load finishes. A load that
     * completes is byte-checked (invariant 12, or 15 after a crash); one that fails must be allowed to
     * ({@link DurabilityChecker#mustLoad}: an acknowledged durable commit that survived a crash, or a chunk this core
     * committed, fails only over a corrupt step).
     */
    private void sweep(final String when) {
        for (final AllocationRef ref : server.directory().liveInAgeOrder()) {
            if (!server.directory().isCommitted(ref)) {
                continue;
            }
            final boolean mustLoad = durability.mustLoad(ref);
            final long loadId = nextLoadId;
            lastLoaded = null;
            startRanges(List.of(LoadRange.whole(ref, config.slotBytes(), nextDestSlot * config.slotBytes())),
                "sweep " + when);
            nextDestSlot += ref.slotCount();
            int completions = 0;
            while (loads.containsKey(loadId)) {
                require(devices.inFlightCount() > 0, "sweep load" + loadId + " waits with no I/O in flight");
                devices.complete(devices.oldest());
                require(++completions <= MAX_COMPLETIONS, "sweep load" + loadId + " never finishes");
            }
            require(lastLoaded != null && lastLoaded.loadId() == loadId, "sweep load" + loadId + " gave no result");
            completeAllIo();
            if (lastLoaded.ok()) {
                ChainStats.add(Counter.SURVIVORS_LOADED, durability.survivorLoaded(ref) ? 1 : 0);
            } else if (mustLoad) {
                checker.report(durability.crashes() > 0 ? Invariant.CRASH : Invariant.LOAD_BYTES, "sweep " + when
                    + ": committed " + slots(List.of(ref)) + " failed to load (" + lastLoaded.failure() + "), yet it"
                    + " is an acknowledged commit with no corrupt step over its slots");
            }
        }
    }

    // ------------------------------------------------------------------ crash and restart

    /** Builds a core (and its client and per-core checkers) on the devices and opens its index, I/O in order. */
    private void startCore(final boolean recover) {
        final int life = durability.crashes();
        this.capacity = new CapacityChecker(new CheckContext(config));
        this.extra = new InvariantChecker(config, loop, List.of(capacity,
            new TrimAfterStoreChecker(Admission.of(config.l1Bytes(), config.headroomRatio())),
            new ReadBatchSequenceChecker()));
        this.server = new KvServer(config, memory, devices.data, devices.index, this::emit);
        this.client = new KvClient(config, memory, server, this::emit, STORE_ID_BASE + life * STORE_IDS_PER_LIFE);
        final String[] error = {null};
        final boolean[] opened = {false};
        server.open(recover, e -> {
            opened[0] = true;
            error[0] = e;
        });
        int completions = 0;
        while (!opened[0]) {
            require(devices.data.inFlightCount() == 0, "the data device has I/O while the index opens");
            require(devices.index.inFlightCount() > 0, "open(" + recover + ") waits with no index I/O in flight");
            devices.index.complete(0);
            require(++completions <= MAX_COMPLETIONS, "open(" + recover + ") never finishes");
        }
        require(error[0] == null, "open(recover=" + recover + ") failed: " + error[0]);
        require(server.isOpen(), "open reported success but the server is not open");
    }

    private void emit(final CoreEvent event) {
        recorded.add(new Recorded(loop.nowNs(), event));
        switch (event) {
            case CoreEvent.IndexIoSubmitted e when e.op() == IoOp.WRITE
                && e.offset() < KvServer.indexLayout(config).logOffset() -> checkpointing = true;
            case CoreEvent.IndexCheckpointed e -> {
                checkpointing = false;
                ChainStats.add(Counter.CHECKPOINTS, 1);
            }
            case CoreEvent.IndexFailed e -> checkpointing = false;
            default -> {
                // not about checkpoints
            }
        }
        checker.emit(event);
        extra.emit(event);
    }

    private void onIoComplete(final IoCompletion completion) {
        server.onIoComplete(completion);
    }

    /** What the crash discards besides the core: everything the old core's client held or was promised. */
    private void dropVolatileState() {
        unsaved.clear();
        leftover.clear();
        committed.clear();
        remembered.clear();
        loads.clear();
        saves.clear();
        drainsAsked = 0;
        drainsDone = 0;
    }

    private static void countCrash(final CrashOutcome data, final CrashOutcome index) {
        ChainStats.add(Counter.CRASHES, 1);
        ChainStats.add(Counter.PAGES_WRITTEN, data.pagesWritten() + index.pagesWritten());
        ChainStats.add(Counter.PAGES_LOST, data.pagesLost() + index.pagesLost());
        ChainStats.add(Counter.PAGES_TORN, data.pagesTorn() + index.pagesTorn());
    }

    // ------------------------------------------------------------------ internals

    private void act(final Runnable body) {
        step++;
        Budget.chainAction();
        ChainStats.add(Counter.ACTIONS, 1);
        loop.at(loop.nowNs() + STEP_NS, body);
        loop.run();
        crossCheck();
    }

    /** Checks the core's own inspection against the event-built shadows, after every action. */
    private void crossCheck() {
        final L1Access l1 = server.tieredStore().l1();
        require(l1.pool().usedBytes() == capacity.leased(), "pool has " + l1.pool().usedBytes()
            + " B leased, reserve/free events say " + capacity.leased());
        require(server.tieredStore().residentBytes() <= config.l1Bytes(),
            "resident " + server.tieredStore().residentBytes()
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
            memory.stamp(gpu, block * config.slotBytes(), config.slotBytes(),
                tag(ref.key(), variant == Variant.MISLABELED_CONTENT ? j + 1 : j));
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
                auditAccepted(requestId, accepted);
            }
        };
    }

    /**
     * In {@code durable} mode a save's accepted keys are what its caller takes for durable: each must be an
     * acknowledged durable commit (a Committed event), which the durability model then holds to survive a crash.
     */
    private void auditAccepted(final long requestId, final List<AllocationRef> accepted) {
        if (config.commitMode() != CommitMode.DURABLE) {
            return;
        }
        for (final AllocationRef ref : accepted) {
            if (!durability.acknowledged(ref)) {
                checker.report(Invariant.CRASH, "the save of req" + requestId + " reported " + slots(List.of(ref))
                    + " accepted, but no durable commit of it was acknowledged (no Committed event)");
            }
        }
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
        lastLoaded = result;
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
                    checker.report(durability.crashes() > 0 ? Invariant.CRASH : Invariant.LOAD_BYTES, "load "
                        + result.loadId() + " of " + label(r.alloc().key()) + " (allocation "
                        + r.alloc().allocationId() + ", slot " + j + ") returned bytes that are not the key's, first"
                        + " at byte " + (bad - at) + " of the slot" + (durability.crashes() > 0 ? ", after crash "
                            + durability.crashes() : ""));
                }
            }
        }
    }

    private void note(final String outcome) {
        log.add("step " + step + ": " + outcome);
    }

    /** The knobs and what each step did, for a failure report. */
    String report() {
        final StringBuilder out = new StringBuilder("knobs: ").append(knobs).append(variant == Variant.HONEST ? ""
            : " variant " + variant).append('\n');
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
