package dev.kvtier.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.PrefixKey;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The catalogue's shape, and each kind of probe reached (and not reached) by the events that say so. */
class ProbeRecorderTest {
    private static final CoreConfig CONFIG = CoreConfig.builder(4096).l2Bytes(16 * 4096).l1Bytes(8 * 4096)
        .concurrentIos(2).readBatchMax(2).build();
    private static final PrefixKey KEY = new PrefixKey(1, 2);

    private static ProbeRecorder fed(final CoreConfig config, final CoreEvent... events) {
        final ProbeRecorder r = new ProbeRecorder(config);
        for (final CoreEvent e : events) {
            r.emit(e);
        }
        return r;
    }

    @Test
    void shouldHoldAtLeastFortyDistinctProbesEachWithAOneLineMeaning() {
        final List<Probe> all = ProbeCatalogue.all();
        assertTrue(all.size() >= 40, all.size() + " probes");
        final Set<String> names = new HashSet<>();
        for (final Probe p : all) {
            assertTrue(names.add(p.name()), "two probes named " + p.name());
            assertTrue(p.meaning().length() > 10 && !p.meaning().contains("\n"), p.name());
            assertEquals(p, ProbeCatalogue.get(p.name()));
        }
        for (final RingEvictReason r : RingEvictReason.values()) {
            assertTrue(names.contains("ring.evict." + r.name().toLowerCase(Locale.ROOT).replace('_', '-')), r.name());
        }
        for (final CoreEvent.SealReason r : CoreEvent.SealReason.values()) {
            assertTrue(names.contains("seal." + r.name().toLowerCase(Locale.ROOT).replace('_', '-')), r.name());
        }
    }

    @Test
    void shouldReachAnEvictionReasonOnlyByThatReason() {
        final ProbeRecorder r = fed(CONFIG, new CoreEvent.EntryEvicted(0, 4096, 0, false, true, L1EvictReason.TRIM),
            new CoreEvent.RingEvicted(KEY, 3, 0, 2, false, 1, RingEvictReason.WRAP));
        assertEquals(1, r.hits("l1.evict.trim"));
        assertEquals(0, r.hits("l1.evict.reserve"));
        assertEquals(1, r.hits("l1.evict.pending-write"));
        assertEquals(0, r.hits("l1.evict.headroom"));
        assertEquals(1, r.hits("ring.evict.wrap"));
        assertEquals(0, r.hits("ring.evict.space"));
        assertEquals(1, r.hits("ring.evict.leased"));
        assertEquals(1, r.hits("ring.evict.uncommitted"));
    }

    @Test
    void shouldReachSkipOnWrapOnlyWhenATailWasSkipped() {
        assertEquals(0, fed(CONFIG, new CoreEvent.RingWrapped(16, 0)).hits("ring.wrap.skip"));
        assertEquals(1, fed(CONFIG, new CoreEvent.RingWrapped(15, 1)).hits("ring.wrap.skip"));
    }

    @Test
    void shouldReachAFullIoQueueWhenDataIosInFlightReachTheBound() {
        final CoreEvent.IoSubmitted w = new CoreEvent.IoSubmitted(1, IoOp.WRITE, 0, 4096, 1);
        assertEquals(0, fed(CONFIG, w).hits("io.queue-full"));
        assertEquals(1, fed(CONFIG, w, new CoreEvent.IoSubmitted(2, IoOp.WRITE, 4096, 4096, 1)).hits("io.queue-full"));
        assertEquals(0, fed(CONFIG, w, new CoreEvent.IoCompleted(1, IoOp.WRITE, 0, 4096),
            new CoreEvent.IoSubmitted(2, IoOp.WRITE, 4096, 4096, 1)).hits("io.queue-full"));
    }

    @Test
    void shouldReachStagingBackPressureWhenAQueuedSaveDoesNotStageAtOnce() {
        final CoreEvent.SaveQueued save = new CoreEvent.SaveQueued(7, List.of(), 2, 8192);
        assertEquals(0, fed(CONFIG, save, new CoreEvent.BatchStaged(7, 0, 1, 0)).hits("client.staging-wait"));
        assertEquals(1, fed(CONFIG, save, new CoreEvent.BatchStaged(6, 1, 1, 0)).hits("client.staging-wait"));
        assertEquals(1, fed(CONFIG, save).hits("client.multi-batch"));
    }

    @Test
    void shouldTestEachEventByItsOwnTypesProbesAndTheEveryEventOnesAsTheTypesAlternate() {
        final CoreEvent.SaveQueued save = new CoreEvent.SaveQueued(7, List.of(), 2, 8192);
        final ProbeRecorder r = fed(CONFIG, new CoreEvent.Allocated(1, KEY, 1, 0, 2), new CoreEvent.Allocated(1, KEY, 2,
            2, 1), new CoreEvent.RingWrapped(15, 1), new CoreEvent.Allocated(1, KEY, 3, 0, 3), save,
            new CoreEvent.Allocated(1, KEY, 4, 3, 2), save, new CoreEvent.RingWrapped(16, 0), save,
            new CoreEvent.RingWrapped(14, 2));
        assertEquals(3, r.hits("ring.alloc.multi-slot"));
        assertEquals(2, r.hits("ring.wrap.skip"));
        assertEquals(3, r.hits("client.staging-wait"), "a queued save then any event but its first batch");
        assertEquals(3, r.hits("client.multi-batch"));
    }

    @Test
    void shouldReachALoadLargerThanL1AndOneNeedingSeveralReadBatches() {
        final ProbeRecorder r = fed(CONFIG, new CoreEvent.LoadRequested(9, List.of(), 9 * 4096),
            new CoreEvent.LoadGap(9, 0, 4096), new CoreEvent.LoadGap(9, 4096, 4096));
        assertEquals(1, r.hits("load.larger-than-l1"));
        assertEquals(0, r.hits("load.multi-batch"), "two gaps fit one batch of two reads");
        r.emit(new CoreEvent.LoadGap(9, 8192, 4096));
        assertEquals(1, r.hits("load.multi-batch"));
        r.emit(new CoreEvent.LoadCompleted(9, 12288, 4096));
        assertEquals(1, r.hits("load.hit-and-gap"));
    }

    @Test
    void shouldTellACrashFromTheFirstOpenAndPlaceItAgainstTheShutdown() {
        final CoreConfig durable = CONFIG.toBuilder().commitMode(CommitMode.DURABLE).build();
        final ProbeRecorder r = fed(durable, new CoreEvent.IndexOpenRequested(true),
            new CoreEvent.IndexCheckpointed(1, 1, 0, 64));
        assertEquals(0, r.hits("crash.durable"), "a recovering first open is not a crash");
        assertEquals(0, r.hits("index.checkpoint"), "the checkpoint every open makes");
        r.emit(new CoreEvent.IndexCheckpointed(1, 9, 3, 640));
        assertEquals(1, r.hits("index.checkpoint"));
        r.emit(new CoreEvent.ShutdownRequested());
        r.emit(new CoreEvent.IndexOpenRequested(true));
        assertEquals(1, r.hits("crash.durable"));
        assertEquals(0, r.hits("crash.l1"));
        assertEquals(1, r.hits("crash.during-shutdown"));
        assertEquals(0, r.hits("crash.repeated"));
        r.emit(new CoreEvent.ShutdownRequested());
        r.emit(new CoreEvent.ShutdownCompleted(true));
        r.emit(new CoreEvent.IndexOpenRequested(true));
        assertEquals(1, r.hits("crash.after-shutdown"));
        assertEquals(1, r.hits("crash.repeated"));
        assertEquals(1, r.hits("crash.during-shutdown"));
    }

    @Test
    void shouldTakeFactsOnlyForFactProbes() {
        final ProbeRecorder r = new ProbeRecorder(CONFIG);
        r.fact(ProbeCatalogue.CRASH_TORN_INDEX, 3);
        r.fact(ProbeCatalogue.FAULT_SPIKE, 0);
        assertEquals(3, r.hits(ProbeCatalogue.CRASH_TORN_INDEX));
        assertEquals(List.of(ProbeCatalogue.CRASH_TORN_INDEX), List.copyOf(r.reached().keySet()));
        assertThrows(IllegalArgumentException.class, () -> r.fact("l1.evict.trim", 1));
        assertThrows(IllegalArgumentException.class, () -> r.fact("no.such-probe", 1));
    }
}
