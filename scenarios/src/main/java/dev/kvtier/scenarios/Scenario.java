package dev.kvtier.scenarios;

import dev.kvtier.core.geometry.ModelGeometry;
import dev.kvtier.sim.run.SimSpec;
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
 * @param spec   the simulation spec (core knobs, device, host costs, workload, limits)
 * @param knobs  every effective setting as text, sorted by key (for reports and journal headers)
 * @param gate   the regression gate, or null when the scenario sets none
 * @param swarm  knobs {@code kvtier explore} draws per seed: key (as for {@code --set}) to the values to draw from
 */
public record Scenario(String name, String source, String text, ModelGeometry model, SimSpec spec,
                       SortedMap<String, String> knobs, Gate gate, SortedMap<String, List<String>> swarm) {
    public Scenario {
        knobs = new TreeMap<>(knobs);
        swarm = new TreeMap<>(swarm);
    }

    /**
     * A regression gate: this scenario must be slower than {@code baseline} by at least {@code minSlowdown} in
     * the cold phase (for example 0.2 = 20 %), or the check fails.
     */
    public record Gate(String baseline, String metric, double minSlowdown) { }
}
