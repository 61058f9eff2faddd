package dev.kvtier.scenarios;

import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.workload.ConnectorSpec;
import dev.kvtier.sim.device.FaultPlan;
import dev.kvtier.sim.device.IndexCrashPages;
import java.util.List;
import java.util.Map;

/**
 * Readers of the tables that need nothing else of the scenario: {@code [faults]}, {@code [coverage]} and the
 * connector's keys of {@code [engine]}. Kept apart
 * from {@link ScenarioLoader} so that the loader stays within its length.
 */
final class ExtraTables {
    private ExtraTables() {}

    /**
     * {@code [faults]}: device faults per million I/Os (EIO, spikes, silent corruption, misdirected and short
     * writes), a slow device and a full metadata disk, until a virtual time (seconds); the volatile write cache, a
     * crash at a core event and crash points drawn per seed, crashes during and after the final shutdown, and
     * index-device faults (flipped bytes, lost writes, how a crash treats index pages). {@link FaultPlan} says what
     * each does and what the core claims to tolerate. An absent table is {@link FaultPlan#NONE}.
     */
    static FaultPlan faults(final Section s) throws ScenarioException {
        if (!s.present()) {
            return FaultPlan.NONE;
        }
        final int read = s.intValue("readErrorsPerMillion", 0, 0, FaultPlan.MILLION);
        final int write = s.intValue("writeErrorsPerMillion", 0, 0, FaultPlan.MILLION);
        final int spikes = s.intValue("spikesPerMillion", 0, 0, FaultPlan.MILLION);
        final long spikeNs = s.longValue("spikeNs", 10_000_000, 0, 3_600_000_000_000L);
        final int slowdown = s.intValue("slowdown", 1, 1, 1000);
        final long until = s.longValue("untilSeconds", 3600, 0, 1L << 30);
        final int corruptions = s.intValue("corruptionsPerMillion", 0, 0, FaultPlan.MILLION);
        final int misdirects = s.intValue("misdirectsPerMillion", 0, 0, FaultPlan.MILLION);
        final long metaFull = s.longValue("metaFullAfterWrites", 0, 0, 1L << 40);
        final boolean cache = s.bool("volatileWriteCache", false);
        final long crashAt = s.longValue("crashAtEvent", -1, -1, 1L << 40);
        final int points = s.intValue("crashPoints", 0, 0, FaultPlan.MAX_CRASH_POINTS);
        final long within = s.longValue("crashWithinEvents", 0, 0, 1L << 40);
        final boolean afterShutdown = s.bool("crashAfterShutdown", false);
        final boolean duringShutdown = s.bool("crashDuringShutdown", false);
        final int flips = s.intValue("indexFlipsPerMillion", 0, 0, FaultPlan.MILLION);
        final IndexCrashPages pages = s.choice("indexCrashPages", IndexCrashPages.DRAW);
        final int shortWrites = s.intValue("shortWritesPerMillion", 0, 0, FaultPlan.MILLION);
        final int lostIndex = s.intValue("indexLostWritesPerMillion", 0, 0, FaultPlan.MILLION);
        s.rejectUnknown();
        if (points > 0 && within == 0) {
            throw s.fail("crashWithinEvents", "must be positive when crashPoints is set");
        }
        return new FaultPlan(read, write, spikes, spikeNs, slowdown, until * 1_000_000_000L, corruptions, misdirects,
            metaFull, cache, crashAt, points, within, afterShutdown, flips, pages, duringShutdown, shortWrites,
            lostIndex);
    }

    /**
     * {@code [coverage]}: {@code required}, the probes an exploration must reach (each must be in the catalogue), once
     * it ran at least {@code minSeeds} seeds (read by the caller, before).
     */
    static List<String> required(final Section s) throws ScenarioException {
        final List<String> required = s.strings("required");
        s.rejectUnknown();
        for (final String name : required) {
            if (ProbeCatalogue.get(name) == null) {
                throw s.fail("required", "names '" + name + "', which is not a coverage probe (`kvtier probes`"
                    + " lists them, docs/commands/probes.md says what each means)");
            }
        }
        return required;
    }

    /**
     * The connector's keys of {@code [engine]} ({@link ConnectorSpec}: chunked keys, sub-slot loads, stores of loaded
     * blocks, duplicate specs, cancelled requests, bad, shifted and short specs), read last: then every unknown key
     * of the table is refused. Recorded as one knob only when one is set, so a scenario that sets none keeps its
     * config digest.
     */
    static ConnectorSpec connector(final Section s, final Map<String, String> knobs) throws ScenarioException {
        final ConnectorSpec c = new ConnectorSpec(s.intValue("blocksPerKey", 1, 1, 1 << 20),
            s.bool("partialLoads", false), s.bool("storeLoaded", false), s.bool("duplicateSpecs", false),
            s.intValue("abortEvery", 0, 0, Integer.MAX_VALUE), s.intValue("badSpanEvery", 0, 0, Integer.MAX_VALUE),
            s.intValue("models", 1, 1, 1 << 16), s.intValue("rewriteEvery", 0, 0, Integer.MAX_VALUE),
            s.intValue("shiftedSpecEvery", 0, 0, Integer.MAX_VALUE),
            s.intValue("shortSpecEvery", 0, 0, Integer.MAX_VALUE));
        s.rejectUnknown();
        if (!c.equals(ConnectorSpec.DEFAULT)) {
            knobs.put("engine.connector", c.toString());
        }
        return c;
    }
}
