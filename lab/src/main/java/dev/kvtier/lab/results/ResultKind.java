package dev.kvtier.lab.results;

import java.util.Optional;
import java.util.Set;

/**
 * The kinds of result a results root holds, each in its own folder: sign-offs, fidelity matrices, calibrations and
 * sweeps and capacity plans. ({@code baselines/} and {@code notes/} sit beside them but hold no result folders.)
 */
public enum ResultKind {
    /** {@code kvtier signoff}: {@code signoffs/<folder>/signoff.json}, {@code signoff.md}, plots and profiles. */
    SIGNOFF("signoff", "signoffs", "Sign-offs", "signoff.md", "signoff.json", "signoff.md", "throughput.png",
        "latency.png", "fidelity.png", "device.toml", "host.toml"),
    /** {@code kvtier fidelity}: {@code fidelity/<folder>/fidelity.json}, {@code fidelity.md}, a plot and profiles. */
    FIDELITY("fidelity", "fidelity", "Fidelity matrices", "fidelity.md", "fidelity.json", "fidelity.md", "ratios.png",
        "device.toml", "host.toml"),
    /** {@code kvtier calibrate --results}: {@code calibrations/<folder>/device.toml} and {@code host.toml}. */
    CALIBRATION("calibration", "calibrations", "Calibrations", "device.toml", "device.toml", "host.toml"),
    /** {@code kvtier sweep --results}: {@code sweeps/<folder>/sweep.json}, {@code sweep.md} and a plot. */
    SWEEP("sweep", "sweeps", "Sweeps", "sweep.md", "sweep.json", "sweep.md", "sweep.png"),
    /** {@code kvtier plan --results}: {@code plans/<folder>/plan.json}, {@code plan.md} and two plots. */
    PLAN("plan", "plans", "Capacity plans", "plan.md", "plan.json", "plan.md", "plan-hits.png", "plan-wear.png");

    private final String id;
    private final String dir;
    private final String title;
    private final String main;
    /** The fixed file names, space-separated (an enum's fields stay immutable). */
    private final String files;

    ResultKind(final String id, final String dir, final String title, final String main, final String... files) {
        this.id = id;
        this.dir = dir;
        this.title = title;
        this.main = main;
        this.files = String.join(" ", files);
    }

    /** The name in a metadata file's {@code kind}. */
    public String id() {
        return id;
    }

    /** The folder under the results root that holds this kind's results. */
    public String dir() {
        return dir;
    }

    /** The index's heading. */
    public String title() {
        return title;
    }

    /** The file a person opens first (the index links to it). */
    public String main() {
        return main;
    }

    /** The file names a result folder of this kind may hold besides its metadata (each tool-written, fixed). */
    public Set<String> files() {
        return Set.of(files.split(" "));
    }

    /** The kind whose {@link #id} is {@code id}. */
    public static Optional<ResultKind> of(final String id) {
        for (final ResultKind k : values()) {
            if (k.id.equals(id)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
