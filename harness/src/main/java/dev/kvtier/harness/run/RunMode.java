package dev.kvtier.harness.run;

/**
 * How a run keeps time, which says what its times mean: the simulator's virtual clock, or the wall clock over a real
 * disk. Reports and journal headers write it as {@link #toString()}: {@code virtual} or {@code real}.
 */
public enum RunMode {
    /** Virtual time: the simulator's seeded event loop; one seed gives one run, bit for bit. */
    VIRTUAL("virtual"),
    /** Wall time: the real I/O loop over a real file or block device. */
    REAL("real");

    private final String label;

    RunMode(final String label) {
        this.label = label;
    }

    /** {@code virtual} or {@code real}, as reports, journal headers and {@code --mode} spell it. */
    @Override
    public String toString() {
        return label;
    }
}
