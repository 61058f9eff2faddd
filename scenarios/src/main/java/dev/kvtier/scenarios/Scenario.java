package dev.kvtier.scenarios;

import dev.kvtier.core.geometry.ModelGeometry;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.sim.run.SimModel;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A loaded, validated scenario.
 *
 * @param name   the scenario's name
 * @param source where it came from (a library name or a file path), for messages
 * @param text   the full TOML text as read (before {@code --set} overrides), for journals
 * @param model  the model geometry
 * @param spec   the run, in either mode (core knobs, workload, liveness bound)
 * @param sim    what only a simulated run takes (device and host-cost models, faults, event budget)
 * @param knobs  every effective setting as text, sorted by key (for reports and journal headers)
 * @param gate   the regression gate, or null when the scenario sets none
 * @param swarm  knobs {@code kvtier explore} draws per seed: key (as for {@code --set}) to the values to draw from
 * @param signoff sign-off thresholds ({@link Signoff#DEFAULT} when the scenario sets none)
 */
public record Scenario(String name, String source, String text, ModelGeometry model, RunSpec spec,
                       SimModel sim, SortedMap<String, String> knobs, Gate gate, SortedMap<String, List<String>> swarm,
                       Signoff signoff) {
    public Scenario {
        knobs = new TreeMap<>(knobs);
        swarm = new TreeMap<>(swarm);
    }

    /**
     * A regression gate against a baseline scenario, compared on {@code metric} in virtual time with the same seed:
     * slowdown = this / baseline - 1. With {@code minSlowdown} set (0 = unset) the gate fails unless this scenario
     * is at least that much slower (a canary: the simulator must flag a known regression); with
     * {@code maxSlowdown} set (0 = unset) it fails when this scenario is more than that much slower (a team's own
     * change must not regress).
     */
    public record Gate(String baseline, String metric, double minSlowdown, double maxSlowdown) {}

    /**
     * Sign-off thresholds: real store bandwidth at least {@code minStoreBytesPerSec} (0 = none), no more than a
     * {@code maxDrop} fraction below the newest earlier result for the same scenario and host, and the simulator's
     * fidelity: the simulated median of each figure within a band (a fraction either side) of the real median, for
     * each phase's time ({@code phaseBand}), each phase's TTFT mean and p99 ({@code ttftMeanBand},
     * {@code ttftP99Band}), and store and load bandwidth ({@code bandwidthBand}); each band defaults to
     * {@link #BAND}.
     */
    public record Signoff(long minStoreBytesPerSec, double maxDrop, double phaseBand, double ttftMeanBand,
                          double ttftP99Band, double bandwidthBand) {
        /** The default fidelity band: +-15 %. */
        public static final double BAND = 0.15;
        public static final Signoff DEFAULT = new Signoff(0, 0.25);

        public Signoff {
            for (final double band : new double[] {phaseBand, ttftMeanBand, ttftP99Band, bandwidthBand}) {
                if (!(band > 0)) {
                    throw new IllegalArgumentException("a fidelity band must be positive, got " + band);
                }
            }
        }

        /** Bandwidth and drop thresholds with the default fidelity bands. */
        public Signoff(final long minStoreBytesPerSec, final double maxDrop) {
            this(minStoreBytesPerSec, maxDrop, BAND, BAND, BAND, BAND);
        }
    }
}
