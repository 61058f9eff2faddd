package dev.kvtier.sim.run;

/** Thrown from a virtual run's event sink at the crash event: unwinds the core mid-step, as power loss would. */
final class PowerLoss extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PowerLoss() {
        super("power loss", null, false, false);
    }
}
