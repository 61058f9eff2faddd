package dev.kvtier.sim.run;

import java.util.List;

/** Prints the event digest of {@link Specs#small} for a seed: run in a second JVM by the determinism test. */
public final class DigestMain {
    private DigestMain() {}

    public static void main(final String[] args) {
        final long seed = Long.parseLong(args[0]);
        System.out.println(new SimRun(Specs.small(12, 4), Specs.MODEL, seed, List.of()).run().eventDigest());
    }
}
