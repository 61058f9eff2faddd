package dev.kvtier.core.testkit;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A server wired to heap memory and two manual devices (L2 data and the index), with one-slot (4096 B) blocks unless
 * told otherwise, and helpers that keep tests short. The index is formatted and opened by the constructor (every
 * index I/O of the open completed); after that the rig leaves index I/Os in flight unless a test completes them, so
 * tests of the store and load paths only drive {@link #device}. Every byte of slot-sized source data is one value, so
 * a test can check which store a byte came from.
 */
public final class Rig {
    public static final long SLOT = 4096;
    public static final int MODEL = 1;

    public final CoreConfig config;
    public final HeapMemory memory = new HeapMemory();
    public final ManualDevice device;
    public final ManualDevice index;
    public final RecordingSink events = new RecordingSink();
    public final KvServer server;
    private long nextId = 1;

    public Rig(final CoreConfig config) {
        this.config = config;
        this.device = new ManualDevice(config.l2Bytes());
        this.index = new ManualDevice(KvServer.indexLayout(config).deviceBytes());
        this.server = new KvServer(config, memory, device, index, events);
        device.connect(server::onIoComplete);
        index.connect(server::onIoComplete);
        final AtomicReference<String[]> opened = new AtomicReference<>();
        server.open(false, error -> opened.set(new String[] {error}));
        index.completeAll();
        if (opened.get() == null || opened.get()[0] != null) {
            throw new AssertionError("the rig's index did not open: "
                + (opened.get() == null ? "open never finished" : opened.get()[0]));
        }
    }

    /** A rig with {@code l1Slots} slots of L1 and {@code l2Slots} of L2, reference defaults otherwise. */
    public static Rig slots(final int l1Slots, final int l2Slots) {
        return new Rig(CoreConfig.builder(SLOT).l2Bytes(l2Slots * SLOT).l1Bytes(l1Slots * SLOT)
            .stagingBatchBytes(4 * SLOT).stagingPoolBytes(8 * SLOT).build());
    }

    public static PrefixKey key(final String name) {
        return new PrefixKey(name.hashCode(), name.length());
    }

    /** Claims one one-slot allocation per name, in one batch. */
    public List<AllocationRef> claim(final String... names) {
        final List<PrefixKey> keys = new ArrayList<>();
        for (final String n : names) {
            keys.add(key(n));
        }
        final List<AllocationRef> out = new ArrayList<>();
        for (final AllocationResult r : server.allocate(nextId++, MODEL, keys, 1)) {
            if (r instanceof AllocationResult.Claimed c) {
                out.add(c.ref());
            } else {
                throw new AssertionError("not claimed: " + r);
            }
        }
        return out;
    }

    public AllocationRef claimOne(final String name) {
        return claim(name).getFirst();
    }

    /** An engine's KV region of {@code blocks} one-slot blocks, block {@code b} filled with {@code 100 + b}. */
    public HeapMemory.Region gpu(final int blocks) {
        final HeapMemory.Region kv = memory.allocate("gpu", blocks * SLOT);
        for (int b = 0; b < blocks; b++) {
            kv.fill(b * SLOT, SLOT, 100 + b);
        }
        return kv;
    }

    /** A source region of {@code slots} slots where slot i is filled with {@code values[i]}. */
    public HeapMemory.Region source(final int... values) {
        final HeapMemory.Region r = memory.allocate("src", values.length * SLOT);
        for (int i = 0; i < values.length; i++) {
            r.fill(i * SLOT, SLOT, values[i]);
        }
        return r;
    }

    /** Stores allocation i from slot i of {@code src}, one span each, in the order given. */
    public AtomicReference<StoreResult> store(final HeapMemory.Region src, final List<AllocationRef> allocs) {
        final List<SpanPiece> spans = new ArrayList<>();
        for (int i = 0; i < allocs.size(); i++) {
            final AllocationRef a = allocs.get(i);
            spans.add(new SpanPiece(a, i * SLOT, a.fileOffset(SLOT), SLOT));
        }
        return storeSpans(src, spans);
    }

    public AtomicReference<StoreResult> storeSpans(final HeapMemory.Region src, final List<SpanPiece> spans) {
        final AtomicReference<StoreResult> result = new AtomicReference<>();
        server.store(nextId++, src, spans, result::set);
        return result;
    }

    /** Stores one allocation with every byte = value, and returns the result holder. */
    public AtomicReference<StoreResult> storeValue(final AllocationRef a, final int value) {
        return store(source(value), List.of(a));
    }

    public void commit(final List<AllocationRef> refs) {
        server.commit(refs, n -> {});
    }

    /** A completed load's destination and result. */
    public record Loaded(AtomicReference<LoadResult> result, HeapMemory.Region dest) {
        public boolean done() {
            return result.get() != null;
        }

        /** The value of slot i of the destination (its first byte; tests fill slots uniformly). */
        public int slot(final int i) {
            return dest.at(i * SLOT);
        }

        public boolean uniform(final int i, final int value) {
            for (long b = i * SLOT; b < (i + 1) * SLOT; b += 512) {
                if (dest.at(b) != (byte) value) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Loads whole allocations into a fresh destination, slot i to i x SLOT. */
    public Loaded load(final List<AllocationRef> allocs) {
        final HeapMemory.Region dest = memory.allocate("dest", Math.max(1, allocs.size()) * SLOT);
        dest.fill(0, dest.sizeBytes(), -1);
        final List<LoadRange> ranges = new ArrayList<>();
        for (int i = 0; i < allocs.size(); i++) {
            ranges.add(LoadRange.whole(allocs.get(i), SLOT, i * SLOT));
        }
        final AtomicReference<LoadResult> result = new AtomicReference<>();
        server.load(nextId++, ranges, dest, result::set);
        return new Loaded(result, dest);
    }

    public Loaded load(final AllocationRef... allocs) {
        return load(List.of(allocs));
    }

    /** Resident entry file offsets, in file order. */
    public List<Long> residentOffsets() {
        final List<Long> out = new ArrayList<>();
        server.tieredStore().l1().entries().inFileOrder().forEach(e -> out.add(e.fileOffset()));
        return out;
    }

    public boolean resident(final AllocationRef a) {
        return residentOffsets().contains(a.fileOffset(SLOT));
    }
}
