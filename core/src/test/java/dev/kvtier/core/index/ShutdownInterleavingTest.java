package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A clean shutdown keeps every {@code l1}-mode commit whatever order the two devices complete their I/Os in: stores,
 * commits and the shutdown run while data and index I/Os complete one at a time, each drawn from either device's
 * in-flight set (fixed seeds, so every run of this test tries the same 600 orders); then the power fails, keeping
 * only what a FLUSH made durable, and every key visible at shutdown must be in the recovered index. Some runs hold
 * thousands of keys on a 16-slot ring, so the log also checkpoints while I/Os complete out of order.
 */
class ShutdownInterleavingTest {
    private static final long SLOT = 4096;

    @Test
    void shouldKeepEveryL1CommitAfterACleanShutdownInAnyCompletionOrder() {
        for (int seed = 0; seed < 600; seed++) {
            final SplittableRandom random = new SplittableRandom(seed);
            final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 8, 16, CommitMode.L1));
            final int keys = 1 + random.nextInt(seed % 6 == 0 ? 2500 : 6);
            final List<String> names = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                final String name = "k" + i;
                final AllocationRef a = rig.claimOne(name);
                final AtomicReference<StoreResult> stored = rig.storeBytes(a, CrashRig.pattern(i, SLOT));
                while (stored.get() == null) {
                    completeOne(rig, random);
                }
                rig.commit(a);
                names.add(name);
                if (random.nextInt(4) == 0) {
                    rig.load(a);
                }
                for (int steps = random.nextInt(3); steps > 0; steps--) {
                    completeOne(rig, random);
                }
            }
            final AtomicReference<String> done = new AtomicReference<>("pending");
            rig.server.shutdown(done::set);
            while (rig.data.inFlightCount() + rig.index.inFlightCount() > 0) {
                completeOne(rig, random);
            }
            assertNull(done.get(), "seed " + seed + ": shut down durably");
            final List<String> live = names.stream().filter(n -> visibleAtShutdown(rig, n)).toList();
            final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
            next.openOrFail(true);
            for (final String name : live) {
                assertTrue(next.visible(name), "seed " + seed + ": " + name + " committed before a clean shutdown "
                    + "was lost by a power loss after it");
            }
            assertEquals(live.size(), live.stream().filter(next::visible).count());
        }
    }

    /** Visible in the shut-down server's directory (lookups through the server are refused after shutdown). */
    private static boolean visibleAtShutdown(final CrashRig rig, final String name) {
        final PrefixKey key = CrashRig.key(name);
        return rig.server.directory().lookup(CrashRig.MODEL, List.of(key)).prefixLength() == 1;
    }

    /** Completes one in-flight I/O, drawn from both devices' in-flight sets. */
    private static void completeOne(final CrashRig rig, final SplittableRandom random) {
        final List<IoRequest> data = rig.data.inFlight();
        final List<IoRequest> index = rig.index.inFlight();
        final int n = random.nextInt(data.size() + index.size());
        if (n < data.size()) {
            rig.data.complete(data.get(n).ioId());
        } else {
            rig.index.complete(index.get(n - data.size()).ioId());
        }
    }
}
