package dev.kvtier.sim.run;

/**
 * A simulated power loss, thrown where the {@link CrashSchedule} says the power fails (from the event sink at a core
 * event, or as the final shutdown completes): it unwinds the core mid-step, as power loss would, up to
 * {@link SimRun}'s loop, which crashes the devices and restarts a core on them. No stack trace: it is control flow.
 */
final class PowerLoss extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PowerLoss() {
        super("power loss", null, false, false);
    }
}
