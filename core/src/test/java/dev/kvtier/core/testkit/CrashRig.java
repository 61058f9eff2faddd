package dev.kvtier.core.testkit;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.index.IndexLayout;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A server with a crash-safe index: heap memory, a {@link ManualDevice} for L2 data and a second one for the index,
 * and helpers to open, store, commit, load and "crash" (build a new server on what the two devices would hold after
 * a power loss now, dropping every in-flight I/O). Data is a seeded byte pattern that differs in every byte, so a
 * test can check a load byte for byte.
 */
public final class CrashRig {
    public static final int MODEL = 1;

    public final CoreConfig config;
    public final HeapMemory memory = new HeapMemory();
    public final ManualDevice data;
    public final ManualDevice index;
    public final RecordingSink events = new RecordingSink();
    public final KvServer server;
    private long nextId = 1;

    public CrashRig(final CoreConfig config, final ManualDevice data, final ManualDevice index) {
        this.config = config;
        this.data = data;
        this.index = index;
        this.server = new KvServer(config, memory, data, index, events);
        data.connect(server::onIoComplete);
        index.connect(server::onIoComplete);
    }

    /** Slots of {@code slotBytes}; L1 and L2 in slots; staging of 4 slots per batch; reference defaults otherwise. */
    public static CoreConfig config(final long slotBytes, final int l1Slots, final int l2Slots, final CommitMode mode) {
        return CoreConfig.builder(slotBytes).l2Bytes(l2Slots * slotBytes).l1Bytes(l1Slots * slotBytes)
            .stagingBatchBytes(4 * slotBytes).stagingPoolBytes(8 * slotBytes).commitMode(mode).build();
    }

    /** Fresh, zeroed devices; the index is not opened. */
    public static CrashRig blank(final CoreConfig config) {
        return new CrashRig(config, new ManualDevice(config.l2Bytes()),
            new ManualDevice(KvServer.indexLayout(config).deviceBytes()));
    }

    /** Fresh devices, index formatted and open. */
    public static CrashRig formatted(final CoreConfig config) {
        final CrashRig rig = blank(config);
        rig.openOrFail(false);
        return rig;
    }

    public IndexLayout layout() {
        return KvServer.indexLayout(config);
    }

    // ------------------------------------------------------------------ open and crash

    /** Starts opening; the holder gets {@code [done argument]} once done is called (so a null error is visible). */
    public AtomicReference<String[]> startOpen(final boolean recover) {
        final AtomicReference<String[]> done = new AtomicReference<>();
        server.open(recover, error -> {
            if (done.get() != null) {
                throw new AssertionError("open called done twice");
            }
            done.set(new String[] {error});
        });
        return done;
    }

    /** Opens, completing every index I/O in order; returns done's argument (null when open). */
    public String open(final boolean recover) {
        final AtomicReference<String[]> done = startOpen(recover);
        index.completeAll();
        if (done.get() == null) {
            throw new AssertionError("open did not finish once every index I/O completed");
        }
        return done.get()[0];
    }

    public void openOrFail(final boolean recover) {
        final String error = open(recover);
        if (error != null) {
            throw new AssertionError("open(" + recover + ") failed: " + error);
        }
    }

    /** The server after a power loss now: both devices as {@code policy} leaves them; not opened. */
    public CrashRig crash(final ManualDevice.CrashPolicy policy) {
        return crash(policy, policy);
    }

    public CrashRig crash(final ManualDevice.CrashPolicy dataPolicy, final ManualDevice.CrashPolicy indexPolicy) {
        return new CrashRig(config, data.crashed(dataPolicy), index.crashed(indexPolicy));
    }

    /** Crash keeping every completed write, then recover. */
    public CrashRig restart() {
        final CrashRig next = crash(ManualDevice.CrashPolicy.KEEP_COMPLETED);
        next.openOrFail(true);
        return next;
    }

    /** Completes every I/O on both devices, data first, until neither has any in flight; returns how many. */
    public int settle() {
        int n = 0;
        while (data.inFlightCount() + index.inFlightCount() > 0) {
            n += data.completeAll();
            n += index.completeAll();
        }
        return n;
    }

    // ------------------------------------------------------------------ keys and data

    public static PrefixKey key(final String name) {
        return Rig.key(name);
    }

    /** Claims one allocation of {@code slotsPerKey} slots per name, in one batch; every one must be claimed. */
    public List<AllocationRef> claim(final int slotsPerKey, final String... names) {
        final List<PrefixKey> keys = new ArrayList<>();
        for (final String n : names) {
            keys.add(key(n));
        }
        final List<AllocationRef> out = new ArrayList<>();
        for (final AllocationResult r : server.allocate(nextId++, MODEL, keys, slotsPerKey)) {
            if (r instanceof AllocationResult.Claimed c) {
                out.add(c.ref());
            } else {
                throw new AssertionError("not claimed: " + r);
            }
        }
        return out;
    }

    public AllocationRef claimOne(final String name) {
        return claim(1, name).getFirst();
    }

    /** {@code length} bytes that differ from those of any other seed and vary inside every 4096-byte block. */
    public static byte[] pattern(final int seed, final long length) {
        final byte[] out = new byte[Math.toIntExact(length)];
        long x = 0x9E3779B97F4A7C15L * (seed + 1);
        for (int i = 0; i < out.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            out[i] = (byte) x;
        }
        return out;
    }

    public HeapMemory.Region region(final byte[] bytes) {
        final HeapMemory.Region r = memory.allocate("src", Math.max(4096, bytes.length));
        System.arraycopy(bytes, 0, r.bytes, 0, bytes.length);
        return r;
    }

    /** Stores the whole allocation with {@code pattern(seed)}; returns the bytes; the store must accept it. */
    public byte[] store(final AllocationRef ref, final int seed) {
        final byte[] bytes = pattern(seed, ref.lengthBytes(config.slotBytes()));
        final StoreResult r = storeBytes(ref, bytes).get();
        if (r == null || !r.accepted().contains(ref)) {
            throw new AssertionError("store of " + ref + " not accepted: " + r);
        }
        return bytes;
    }

    /** Stores {@code bytes} at the start of the allocation, as one span; the result holder. */
    public AtomicReference<StoreResult> storeBytes(final AllocationRef ref, final byte[] bytes) {
        final AtomicReference<StoreResult> result = new AtomicReference<>();
        server.store(nextId++, region(bytes),
            List.of(new SpanPiece(ref, 0, ref.fileOffset(config.slotBytes()), bytes.length)), result::set);
        return result;
    }

    /** Commits; the holder gets how many became visible once the commit finishes. */
    public AtomicReference<Integer> commit(final List<AllocationRef> refs) {
        final AtomicReference<Integer> done = new AtomicReference<>();
        server.commit(refs, n -> {
            if (done.get() != null) {
                throw new AssertionError("commit called done twice");
            }
            done.set(n);
        });
        return done;
    }

    public AtomicReference<Integer> commit(final AllocationRef... refs) {
        return commit(List.of(refs));
    }

    /** True when lookup finds {@code name} (alone) committed. */
    public boolean visible(final String name) {
        return server.lookup(MODEL, List.of(key(name))).prefixLength() == 1;
    }

    /** The committed allocation lookup returns for {@code name}, or null. */
    public AllocationRef found(final String name) {
        final List<AllocationRef> p = server.lookup(MODEL, List.of(key(name))).prefix();
        return p.isEmpty() ? null : p.getFirst();
    }

    /** A load's destination (pre-filled with 0x5A) and result. */
    public record Loaded(AtomicReference<LoadResult> result, HeapMemory.Region dest) {
        public boolean done() {
            return result.get() != null;
        }

        public boolean ok() {
            return done() && result.get().ok();
        }

        /** {@code length} bytes of the destination at {@code offset}. */
        public byte[] bytes(final long offset, final long length) {
            return Arrays.copyOfRange(dest.bytes(), Math.toIntExact(offset), Math.toIntExact(offset + length));
        }

        public byte[] bytes() {
            return dest.bytes().clone();
        }
    }

    public static final byte SENTINEL = 0x5A;

    /** Loads whole allocations back to back into a fresh destination. */
    public Loaded load(final AllocationRef... refs) {
        final List<LoadRange> ranges = new ArrayList<>();
        long at = 0;
        for (final AllocationRef r : refs) {
            ranges.add(LoadRange.whole(r, config.slotBytes(), at));
            at += r.lengthBytes(config.slotBytes());
        }
        return load(ranges, at);
    }

    public Loaded load(final List<LoadRange> ranges, final long destBytes) {
        final HeapMemory.Region dest = memory.allocate("dest", Math.max(4096, destBytes));
        dest.fill(0, dest.sizeBytes(), SENTINEL);
        final AtomicReference<LoadResult> result = new AtomicReference<>();
        server.load(nextId++, ranges, dest, r -> {
            if (result.get() != null) {
                throw new AssertionError("load called done twice");
            }
            result.set(r);
        });
        return new Loaded(result, dest);
    }

    /** Resident L1 entry file offsets, in file order. */
    public List<Long> residentOffsets() {
        final List<Long> out = new ArrayList<>();
        server.tieredStore().l1().entries().inFileOrder().forEach(e -> out.add(e.fileOffset()));
        return out;
    }

    /** True when some resident L1 entry overlaps the allocation's bytes. */
    public boolean resident(final AllocationRef ref) {
        final long from = ref.fileOffset(config.slotBytes());
        final long to = from + ref.lengthBytes(config.slotBytes());
        final boolean[] hit = {false};
        server.tieredStore().l1().entries().inFileOrder().forEach(e -> {
            if (e.fileOffset() < to && from < e.fileOffset() + e.lengthBytes()) {
                hit[0] = true;
            }
        });
        return hit[0];
    }

    /** A client on this server (store ids from 1_000_000). */
    public KvClient client() {
        return new KvClient(config, memory, server, events, 1_000_000);
    }

    /** What a client's listener heard. */
    public static final class Heard implements SaveListener {
        public final List<Long> released = new ArrayList<>();
        public final List<Long> committed = new ArrayList<>();
        public final List<AllocationRef> accepted = new ArrayList<>();

        @Override
        public void released(final long requestId) {
            released.add(requestId);
        }

        @Override
        public void committed(final long requestId, final List<AllocationRef> acceptedRefs,
                              final List<AllocationRef> rejected) {
            committed.add(requestId);
            accepted.addAll(acceptedRefs);
        }
    }

    /** Saves one allocation through {@code client} from KV memory holding {@code bytes} at block 0. */
    public Heard save(final KvClient client, final long requestId, final AllocationRef ref, final byte[] bytes) {
        final int slots = ref.slotCount();
        final List<Integer> blocks = new ArrayList<>();
        for (int b = 0; b < slots; b++) {
            blocks.add(b);
        }
        final Heard heard = new Heard();
        client.save(requestId, List.of(StoreSpec.of(ref, blocks, config.slotBytes())), region(bytes), heard);
        return heard;
    }
}
