package dev.kvtier.scenarios;

/**
 * How {@link ScenarioLoader} checks the values of a scenario's {@code [swarm]} table ({@link SwarmTable#check}): each
 * as the scenario with that one value drawn.
 */
public enum SwarmCheck {
    /**
     * For a command that draws nothing (run, gate, sweep, ...): a value is refused when it fails both after the
     * command's {@code --set}s and on the scenario as written. So a bad value in the file is one line, whatever the
     * command, while a {@code --set} that only an exploration would trip on (a larger workload, say) does not stop a
     * run that draws nothing.
     */
    FILE,
    /** For a command that draws (explore, run --swarm): a value is refused when it fails after the {@code --set}s. */
    DRAWS,
    /** Not checked: a seed's draws, loaded on a scenario already checked. */
    NONE
}
