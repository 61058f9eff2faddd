package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drain fit recovers the rate and the delay of a cache that behaves as the model says, from passes shaped like
 * the full plan's (full passes with the FLUSH at once, 1 GiB passes with waits of 0-4 s, paced passes).
 */
class DrainCalibrationTest {
    private static final long MIB = 1 << 20;
    private static final long MS = 1_000_000L;

    /** A pass of {@code steps} x 64 MiB written at 3 GB/s, a pause of {@code gapNs} every {@code burst} steps. */
    private static List<DrainCalibration.Step> pass(final int steps, final int burst, final long gapNs) {
        final List<DrainCalibration.Step> out = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < steps; i++) {
            if (i > 0 && i % burst == 0) {
                t += gapNs;
            }
            t += 64 * MIB * 1_000_000_000L / 3_000_000_000L;
            out.add(new DrainCalibration.Step(t, 64 * MIB));
        }
        return out;
    }

    /** Samples of the full plan's shapes, each FLUSH timed as a cache of that rate and delay would take. */
    private static List<DrainCalibration.Sample> world(final long bytesPerSec, final long delayNs) {
        final List<DrainCalibration.Sample> out = new ArrayList<>();
        final List<List<DrainCalibration.Step>> passes = new ArrayList<>();
        final List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            passes.add(pass(72, 72, 0));
            waits.add(0L);
        }
        for (long wait = 0; wait <= 4_000 * MS; wait += 1_000 * MS) {
            passes.add(pass(16, 16, 0));
            waits.add(wait);
        }
        passes.add(pass(72, 18, 500 * MS));
        waits.add(0L);
        passes.add(pass(72, 18, 1_000 * MS));
        waits.add(0L);
        for (int i = 0; i < passes.size(); i++) {
            final List<DrainCalibration.Step> steps = passes.get(i);
            final long at = steps.getLast().doneNs() + waits.get(i);
            final DrainCalibration.Sample probe = new DrainCalibration.Sample("p" + i, steps, at, 0);
            out.add(new DrainCalibration.Sample("p" + i, steps, at,
                DrainCalibration.modelFlushNs(probe, bytesPerSec, delayNs)));
        }
        return out;
    }

    @Test
    void shouldRecoverTheRateAndTheDelayOfACacheThatHoldsWritesForSeconds() {
        final DrainCalibration.Fit fit = DrainCalibration.fit(world(2_500_000_000L, 2_400 * MS));
        assertTrue(Math.abs(fit.delayNs() - 2_400 * MS) <= 100 * MS, "within the passes' resolution: " + fit);
        assertTrue(Math.abs(fit.bytesPerSec() / 2.5e9 - 1) < 0.04, fit.toString());
        assertTrue(fit.meanAbsErrorNs() < 30 * MS, fit.toString());
    }

    @Test
    void shouldFindNoDelayInACacheThatDrainsFromTheStart() {
        final DrainCalibration.Fit fit = DrainCalibration.fit(world(1_000_000_000L, 0));
        assertEquals(0, fit.delayNs(), fit.toString());
        assertTrue(Math.abs(fit.bytesPerSec() / 1e9 - 1) < 0.04, fit.toString());
    }

    @Test
    void shouldCallAModelledCacheSteadyAndOneThatWritesBackAtMomentsOfItsOwnErratic() {
        final List<DrainCalibration.Sample> steady = world(2_500_000_000L, 2_400 * MS);
        assertFalse(DrainCalibration.fit(steady).erratic());
        // The same passes, but every other FLUSH finds the cache already written back (1 ms), as on a host that writes
        // back when it likes: no rate and delay give both.
        final List<DrainCalibration.Sample> erratic = new ArrayList<>();
        for (int i = 0; i < steady.size(); i++) {
            final DrainCalibration.Sample s = steady.get(i);
            erratic.add(new DrainCalibration.Sample(s.label(), s.steps(), s.flushAtNs(),
                i % 2 == 0 ? MS : s.flushNs() + 400 * MS));
        }
        final DrainCalibration.Fit fit = DrainCalibration.fit(erratic);
        assertTrue(fit.erratic(), fit.toString());
    }

    @Test
    void shouldMergeAPassesWritesIntoStepsOfAtLeast64Mib() {
        final WritePass p = new WritePass(new long[] {1, 2, 3, 4, 5}, new long[] {32 * MIB, 32 * MIB, 32 * MIB,
            32 * MIB, 4 * MIB}, 10);
        final DrainCalibration.Sample s = DrainCalibration.Sample.of("x", p, 7, 99);
        assertEquals(List.of(new DrainCalibration.Step(2, 64 * MIB), new DrainCalibration.Step(4, 64 * MIB),
            new DrainCalibration.Step(5, 4 * MIB)), s.steps());
        assertEquals(17, s.flushAtNs(), "the FLUSH went out after the pass and the wait");
        assertEquals(132 * MIB, s.totalBytes());
    }
}
