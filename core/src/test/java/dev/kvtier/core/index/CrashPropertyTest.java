package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * docs/design/STORAGE-CORE.md invariant 15, by seeded random runs: keys are claimed, stored, committed (or not),
 * loaded, and I/Os complete (or fail) in random order on both devices; then a crash keeps a random subset of the blocks
 * that were not durable (unflushed or in flight: torn writes included) and the index is recovered, three times a run.
 * After each recovery no load returns bytes other than the key's own, and in durable mode every key whose commit
 * reported it visible and that was still live at the crash is loadable. Before each crash every successful load returns
 * exactly the stored bytes (invariant 12), and a key stored since the last restart never fails its checksum.
 *
 * <p>What it skips: media corruption (see ChecksumTest), periodic checkpoints (see IndexCheckpointTest; a run here
 * never fills half the log area), and loads in flight across a crash (dropped with the process).
 */
class CrashPropertyTest {
    private static final int SEEDS = 60;
    private static final int CYCLES = 3;

    @Test
    void shouldNeverServeWrongBytesAfterACrashInL1Mode() {
        runSeeds(CommitMode.L1, false);
    }

    @Test
    void shouldNeverLoseOrCorruptADurableCommitAfterACrash() {
        runSeeds(CommitMode.DURABLE, false);
    }

    @Test
    void shouldKeepBothPromisesWhenIoFailsInL1Mode() {
        runSeeds(CommitMode.L1, true);
    }

    @Test
    void shouldKeepBothPromisesWhenIoFailsInDurableMode() {
        runSeeds(CommitMode.DURABLE, true);
    }

    private static void runSeeds(final CommitMode mode, final boolean faults) {
        for (long seed = 1; seed <= SEEDS; seed++) {
            try {
                new Run(seed, mode, faults).run();
            } catch (final AssertionError | RuntimeException e) {
                throw new AssertionError("SEED=" + seed + " mode=" + mode + " faults=" + faults + ": " + e.getMessage(),
                    e);
            }
        }
    }

    /** A key as the test knows it. */
    @SuppressWarnings("ArrayRecordComponent") // its bytes are compared with assertArrayEquals; a Stored never is
    private record Stored(String name, AllocationRef ref, byte[] bytes, int cycle) {}

    private record LoadCheck(Stored key, CrashRig.Loaded loaded) {}

    private record PendingStore(Stored key, AtomicReference<StoreResult> result, boolean commit) {}

    private static final class Run {
        final long seed;
        final CommitMode mode;
        final boolean faults;
        final Random rnd;
        final CoreConfig config;
        final Map<PrefixKey, Stored> byKey = new LinkedHashMap<>();
        final List<PendingStore> stores = new ArrayList<>();
        final List<LoadCheck> loads = new ArrayList<>();
        final Map<String, AtomicReference<Integer>> commits = new LinkedHashMap<>();
        CrashRig rig;
        int cycle;
        int names;

        Run(final long seed, final CommitMode mode, final boolean faults) {
            this.seed = seed;
            this.mode = mode;
            this.faults = faults;
            this.rnd = new Random(seed * 7919 + (mode == CommitMode.DURABLE ? 1 : 0) + (faults ? 2 : 0));
            final int l2 = 6 + rnd.nextInt(10);
            final int l1 = 3 + rnd.nextInt(4);
            final CoreConfig c = CrashRig.config(4096, l1, l2, mode);
            this.config = c.toBuilder().concurrentIos(1 + rnd.nextInt(4)).build();
        }

        void run() {
            rig = CrashRig.formatted(config);
            for (cycle = 0; cycle < CYCLES; cycle++) {
                final int steps = 20 + rnd.nextInt(150);
                for (int s = 0; s < steps; s++) {
                    step();
                    checkLoads();
                }
                crashAndCheck();
            }
        }

        void step() {
            final int dice = rnd.nextInt(100);
            if (dice < 25) {
                newKey();
            } else if (dice < 40) {
                loadSome();
            } else {
                completeSome();
            }
            progressStores();
        }

        void newKey() {
            final String name = "s" + seed + "-" + names++;
            final int slots = 1 + rnd.nextInt(2);
            final AllocationRef ref = rig.claim(slots, name).getFirst();
            final byte[] bytes = CrashRig.pattern((int) (seed * 100_000 + names), ref.lengthBytes(4096));
            final Stored k = new Stored(name, ref, bytes, cycle);
            byKey.put(ref.key(), k);
            stores.add(new PendingStore(k, rig.storeBytes(ref, bytes), rnd.nextInt(100) < 85));
        }

        /** Commits (or releases) the claims whose store came back. */
        void progressStores() {
            for (final PendingStore p : List.copyOf(stores)) {
                final StoreResult r = p.result().get();
                if (r == null) {
                    continue;
                }
                stores.remove(p);
                if (!r.accepted().contains(p.key().ref())) {
                    continue; // stale: evicted while it waited
                }
                if (p.commit()) {
                    commits.put(p.key().name(), rig.commit(p.key().ref()));
                } else if (rnd.nextBoolean()) {
                    rig.server.release(p.key().ref());
                }
            }
        }

        void loadSome() {
            final List<Stored> candidates = new ArrayList<>();
            for (final Stored k : byKey.values()) {
                if (rig.visible(k.name())) {
                    candidates.add(k);
                }
            }
            if (candidates.isEmpty()) {
                return;
            }
            final Stored k = candidates.get(rnd.nextInt(candidates.size()));
            loads.add(new LoadCheck(k, rig.load(rig.found(k.name()))));
        }

        void completeSome() {
            final List<IoRequest> data = rig.data.inFlight();
            final List<IoRequest> index = rig.index.inFlight();
            if (data.isEmpty() && index.isEmpty()) {
                return;
            }
            final boolean onData = index.isEmpty() || (!data.isEmpty() && rnd.nextInt(3) > 0);
            final ManualDevice d = onData ? rig.data : rig.index;
            final List<IoRequest> from = onData ? data : index;
            final IoRequest r = from.get(rnd.nextInt(from.size()));
            if (faults && rnd.nextInt(100) < 4) {
                d.fail(r.ioId());
            } else {
                d.complete(r.ioId());
            }
        }

        /** Invariant 12 before a crash: a successful load returns the stored bytes; new keys never fail CORRUPT. */
        void checkLoads() {
            for (final LoadCheck l : List.copyOf(loads)) {
                if (!l.loaded().done()) {
                    continue;
                }
                loads.remove(l);
                final Stored k = l.key();
                if (l.loaded().ok()) {
                    assertArrayEquals(k.bytes(), l.loaded().bytes(0, k.bytes().length), "bytes of " + k.name());
                } else if (k.cycle() == cycle) {
                    assertTrue(l.loaded().result().get().failure() != LoadFailure.CORRUPT,
                        k.name() + " was stored since the last restart and failed its checksum");
                }
            }
        }

        void crashAndCheck() {
            // What must survive: durable commits that reported visible and are still live.
            final Set<String> mustSurvive = new LinkedHashSet<>();
            if (mode == CommitMode.DURABLE) {
                for (final Map.Entry<String, AtomicReference<Integer>> e : commits.entrySet()) {
                    final Stored k = byName(e.getKey());
                    final Integer n = e.getValue().get();
                    if (n != null && n == 1 && rig.server.directory().isCommitted(k.ref())) {
                        mustSurvive.add(k.name());
                    }
                }
            }
            final ManualDevice.CrashPolicy dataPolicy = policy();
            final ManualDevice.CrashPolicy indexPolicy = policy();
            final CrashRig next = rig.crash(dataPolicy, indexPolicy);
            assertNull(next.open(true), "recovery must succeed");
            stores.clear();
            loads.clear();
            commits.clear();
            rig = next;
            final List<AllocationRef> recovered = next.server.directory().liveInAgeOrder();
            for (final String name : mustSurvive) {
                assertTrue(recovered.contains(byName(name).ref()), "durable commit " + name + " was lost by the crash");
            }
            for (final AllocationRef ref : recovered) {
                final Stored k = byKey.get(ref.key());
                assertNotNull(k, "recovered a key never stored: " + ref);
                assertEquals(k.ref(), ref, "recovered " + k.name() + " with another allocation");
                final CrashRig.Loaded l = next.load(ref);
                next.settle();
                if (l.ok()) {
                    assertArrayEquals(k.bytes(), l.bytes(0, k.bytes().length), "after the crash, bytes of " + k.name());
                } else {
                    assertEquals(LoadFailure.CORRUPT, l.result().get().failure(), k.name());
                    assertTrue(!mustSurvive.contains(k.name()), "durable " + k.name() + " failed its checksum");
                }
            }
        }

        Stored byName(final String name) {
            for (final Stored k : byKey.values()) {
                if (k.name().equals(name)) {
                    return k;
                }
            }
            throw new AssertionError("no key " + name);
        }

        /** Keep every completed write, lose every unflushed one, or keep each block with a random probability. */
        ManualDevice.CrashPolicy policy() {
            final int kind = rnd.nextInt(4);
            final Random blocks = new Random(rnd.nextLong());
            final int keepPercent = rnd.nextInt(101);
            return switch (kind) {
                case 0 -> ManualDevice.CrashPolicy.KEEP_COMPLETED;
                case 1 -> ManualDevice.CrashPolicy.LOSE_UNFLUSHED;
                default -> (w, block) -> blocks.nextInt(100) < keepPercent;
            };
        }
    }
}
