package dev.kvtier.realio.run;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.loop.CallOutcome;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;

/**
 * Recovery on a real disk, read back: claims a data file and its index as a {@code --recover} run does (kvtier's own
 * files of this ring only, locked while it reads), opens a core on them with {@code recover} and times the open, then
 * loads every slot of every recovered chunk through the core (its checksums checked on the way) and compares each
 * loaded slot with the content its key must hold ({@code tagOf}, the workload's stamp). The core is never asked to
 * store; its open writes the recovered index's first checkpoint, and a load that fails its checksum evicts that chunk,
 * as in any run.
 *
 * <p>A crash campaign ({@code kvtier crash-campaign}) runs this in a fresh process after each kill; what to expect of
 * the chunks (which must be there, which may) is the caller's to judge.
 */
public final class RecoveryCheck {
    /** Slots loaded at once: the destination holds this many. */
    private static final int BATCH_SLOTS = 64;

    /** What reading a recovered chunk back gave. */
    public enum Outcome {
        /** Every slot loaded and held its key's content. */
        LOADED,
        /** A slot loaded (its checksum matched) but held other content: a wrong byte served. */
        WRONG_BYTES,
        /** A load failed (a checksum mismatch, a read error): a miss from then on, never a wrong byte. */
        UNREADABLE,
        /** The recovered chunk was not the key's committed allocation when looked up. */
        NOT_FOUND
    }

    /**
     * One recovered chunk and what reading it gave.
     *
     * @param key          its key
     * @param modelId      its model
     * @param allocationId its allocation
     * @param startSlot    its first slot
     * @param slotCount    its slots
     * @param outcome      what reading it back gave
     * @param detail       the failed load's reason, or the first wrong byte's offset, or empty
     */
    public record Chunk(PrefixKey key, int modelId, long allocationId, int startSlot, int slotCount, Outcome outcome,
                        String detail) {
        public Chunk {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * What recovery found.
     *
     * @param fromDisk  a checkpoint was found and recovered (else the index started empty)
     * @param records   log records replayed after the checkpoint
     * @param bytesRead bytes read from the index device
     * @param openNanos wall time of the core's open with recover: reading, replaying, and the first checkpoint made
     *                  durable
     * @param chunks    every recovered chunk, oldest first, with what reading it back gave
     */
    public record Result(boolean fromDisk, long records, long bytesRead, long openNanos, List<Chunk> chunks) {
        public Result {
            chunks = List.copyOf(chunks);
        }
    }

    private final CoreConfig config;
    private final long timeoutNs;
    private final String where;
    private final ToLongFunction<PrefixKey> tagOf;
    private long loadId;

    private RecoveryCheck(final CoreConfig config, final long timeoutNs, final String where,
                          final ToLongFunction<PrefixKey> tagOf) {
        this.config = config;
        this.timeoutNs = timeoutNs;
        this.where = where;
        this.tagOf = tagOf;
    }

    /**
     * Recovers the index of {@code target} (which must ask to recover) for a core of {@code config}, and reads every
     * recovered chunk back; {@code tagOf} gives the content each key's slots must hold. Progress goes to {@code log}.
     *
     * @throws BadDevice when a file cannot be claimed or opened, or the index cannot be recovered
     */
    public static Result run(final CoreConfig config, final RealTarget target, final ToLongFunction<PrefixKey> tagOf,
                             final PrintStream log) throws BadDevice {
        if (!target.recover()) {
            throw new IllegalArgumentException("a recovery check recovers: the target must say recover");
        }
        return new RecoveryCheck(config, target.timeoutNs(), "device " + target.device(), tagOf).check(target, log);
    }

    /** Native memory a check of a core of {@code config} needs: the L1 pool, the index buffer, the destination. */
    public static long memoryBytes(final CoreConfig config) {
        return config.l1PoolBytes() + RealRun.indexBufferBytes(config) + BATCH_SLOTS * config.slotBytes();
    }

    /**
     * The same check on devices opened elsewhere ({@code devices}, moving the bytes of {@code memory}, which holds at
     * least {@link #memoryBytes}): recovery of the index on {@code devices.index()}, then every recovered chunk read
     * back from {@code devices.data()}. The crash-image checker runs it on images of a recorded run's devices;
     * {@code where} names them in a failure, and {@code timeoutNs} bounds the open and each batch of loads.
     *
     * @throws BadDevice when the index cannot be recovered or the loads do not complete in time
     */
    public static Result onDevices(final CoreConfig config, final NativeMemory memory, final DevicePair devices,
                                   final ToLongFunction<PrefixKey> tagOf, final long timeoutNs,
                                   final String where) throws BadDevice {
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
        return new RecoveryCheck(config, timeoutNs, where, tagOf).recover(memory, devices);
    }

    private Result check(final RealTarget target, final PrintStream log) throws BadDevice {
        try (RealDevices opened = RealDevices.open(LibcKernel.create(), config, memoryBytes(config), target, log)) {
            return recover(opened.memory(), opened.devices());
        }
    }

    private Result recover(final NativeMemory memory, final DevicePair devices) throws BadDevice {
        final List<CoreEvent.ChunkRecovered> recovered = new ArrayList<>();
        final CoreEvent.IndexOpened[] openedEvent = new CoreEvent.IndexOpened[1];
        final EventSink sink = e -> {
            if (e instanceof CoreEvent.ChunkRecovered r) {
                recovered.add(r);
            } else if (e instanceof CoreEvent.IndexOpened o) {
                openedEvent[0] = o;
            }
        };
        final KvServer server = new KvServer(config, memory, devices.data(), devices.index(), sink);
        final RealLoop loop = RealLoop.over(devices, server::onIoComplete);
        final CallOutcome open = new CallOutcome();
        final long t0 = System.nanoTime();
        server.open(true, open);
        final RealLoop.Outcome outcome = loop.runFor(open::done, timeoutNs);
        final long openNanos = System.nanoTime() - t0;
        if (outcome != RealLoop.Outcome.STOPPED || open.error() != null || openedEvent[0] == null) {
            throw new BadDevice("index of " + where + ": recovery did not complete: "
                + (open.error() != null ? open.error() : "no answer within " + timeoutNs / 1e9 + " s"));
        }
        final List<Chunk> chunks = readBack(server, loop, memory, recovered);
        // Closed as a run closes: once what the check changed (evictions of chunks that failed) is written.
        final CallOutcome shutdown = new CallOutcome();
        server.shutdown(shutdown);
        await(loop, shutdown::done);
        final CoreEvent.IndexOpened o = openedEvent[0];
        return new Result(o.recoveredFromDisk(), o.records(), o.bytesRead(), openNanos, chunks);
    }

    /** A recovered chunk being read back: where it lands in the destination, and its load's result. */
    private static final class Pending {
        final int index;
        final CoreEvent.ChunkRecovered chunk;
        final AllocationRef ref;
        final long destOffset;
        LoadResult result;

        Pending(final int index, final CoreEvent.ChunkRecovered chunk, final AllocationRef ref,
                final long destOffset) {
            this.index = index;
            this.chunk = chunk;
            this.ref = ref;
            this.destOffset = destOffset;
        }
    }

    /**
     * Loads every recovered chunk, as many at once as fill {@link #BATCH_SLOTS} slots of the destination (a larger
     * chunk alone, a batch of slots at a time), and says what each gave, in recovery's order.
     */
    private List<Chunk> readBack(final KvServer server, final RealLoop loop, final NativeMemory memory,
                                 final List<CoreEvent.ChunkRecovered> recovered) throws BadDevice {
        final NativeRegion dest = memory.allocate("recovery-check", BATCH_SLOTS * config.slotBytes());
        final Chunk[] out = new Chunk[recovered.size()];
        final List<Pending> batch = new ArrayList<>();
        int used = 0;
        for (int i = 0; i < recovered.size(); i++) {
            final CoreEvent.ChunkRecovered r = recovered.get(i);
            final List<AllocationRef> found = server.lookup(r.modelId(), List.of(r.key())).prefix();
            if (found.isEmpty() || found.getFirst().allocationId() != r.allocationId()) {
                out[i] = chunk(r, Outcome.NOT_FOUND, found.isEmpty() ? "lookup found nothing"
                    : "lookup found allocation " + found.getFirst().allocationId());
                continue;
            }
            if (used + r.slotCount() > BATCH_SLOTS) {
                loadBatch(server, loop, memory, dest, batch, out);
                used = 0;
            }
            if (r.slotCount() > BATCH_SLOTS) {
                out[i] = loadLarge(server, loop, memory, dest, found.getFirst(), r);
                continue;
            }
            batch.add(new Pending(i, r, found.getFirst(), used * config.slotBytes()));
            used += r.slotCount();
        }
        loadBatch(server, loop, memory, dest, batch, out);
        return List.of(out);
    }

    /** Loads the chunks of {@code batch} at once, checks each, and empties the batch. */
    private void loadBatch(final KvServer server, final RealLoop loop, final NativeMemory memory,
                           final NativeRegion dest, final List<Pending> batch, final Chunk[] out) throws BadDevice {
        for (final Pending p : batch) {
            server.load(++loadId, List.of(LoadRange.whole(p.ref, config.slotBytes(), p.destOffset)), dest,
                res -> p.result = res);
        }
        await(loop, () -> batch.stream().allMatch(p -> p.result != null));
        for (final Pending p : batch) {
            out[p.index] = check(memory, dest, p.result, p.destOffset, 0, p.ref.slotCount(), p.chunk);
        }
        batch.clear();
    }

    /** Loads a chunk of more than {@link #BATCH_SLOTS} slots a batch of slots at a time. */
    private Chunk loadLarge(final KvServer server, final RealLoop loop, final NativeMemory memory,
                            final NativeRegion dest, final AllocationRef ref,
                            final CoreEvent.ChunkRecovered r) throws BadDevice {
        final long slotBytes = config.slotBytes();
        Chunk result = chunk(r, Outcome.LOADED, "");
        for (int from = 0; from < r.slotCount() && result.outcome() == Outcome.LOADED; from += BATCH_SLOTS) {
            final int slots = Math.min(BATCH_SLOTS, r.slotCount() - from);
            final LoadResult[] res = new LoadResult[1];
            server.load(++loadId, List.of(new LoadRange(ref, ref.fileOffset(slotBytes) + from * slotBytes,
                slots * slotBytes, 0)), dest, x -> res[0] = x);
            await(loop, () -> res[0] != null);
            result = check(memory, dest, res[0], 0, from, slots, r);
        }
        return result;
    }

    private void await(final RealLoop loop, final BooleanSupplier done) throws BadDevice {
        if (loop.runFor(done, timeoutNs) != RealLoop.Outcome.STOPPED) {
            throw new BadDevice(where + ": loads of recovered chunks did not complete within " + timeoutNs / 1e9
                + " s");
        }
    }

    /** What a load gave: failed, or each slot compared with the content its key must hold. */
    private Chunk check(final NativeMemory memory, final NativeRegion dest, final LoadResult result,
                        final long destOffset, final int firstSlot, final int slots,
                        final CoreEvent.ChunkRecovered r) {
        if (!result.ok()) {
            return chunk(r, Outcome.UNREADABLE, String.valueOf(result.failure()));
        }
        // Every slot of a chunk holds its key's content: the workload's keys take one slot each (the caller checks).
        final long tag = tagOf.applyAsLong(r.key());
        final long slotBytes = config.slotBytes();
        for (int s = 0; s < slots; s++) {
            final long bad = memory.firstMismatch(dest, destOffset + s * slotBytes, slotBytes, tag);
            if (bad >= 0) {
                return chunk(r, Outcome.WRONG_BYTES, "slot " + (firstSlot + s) + " byte " + bad);
            }
        }
        return chunk(r, Outcome.LOADED, "");
    }

    private static Chunk chunk(final CoreEvent.ChunkRecovered r, final Outcome outcome, final String detail) {
        return new Chunk(r.key(), r.modelId(), r.allocationId(), r.startSlot(), r.slotCount(), outcome, detail);
    }
}
