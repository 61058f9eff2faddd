package dev.kvtier.lab.plan;

import dev.kvtier.core.config.L2Admission;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.workload.Trace;
import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.lab.explore.ShardSummary;
import dev.kvtier.lab.run.DriveWear;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.scenarios.ModelPresets;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.scenarios.Sizes;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code kvtier plan SCENARIO --l1 SIZES --l2 SIZES}: the scenario in virtual time at every cell of the grid (each L1
 * size with each L2 size, for each admission policy) that this shard owns (cell k of the grid, in the order admission,
 * L1, L2, belongs to shard {@code k mod n}), each cell's row printed as it finishes; the whole plan, or this shard's
 * rows, handed to {@link PlanOutput}.
 */
public final class PlanJob {
    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to plan.
     *
     * @param scenario   the scenario (name or path)
     * @param sets       overrides for every cell
     * @param l1         L1 sizes with units ({@code 16GiB})
     * @param l2         L2 sizes with units
     * @param admissions admission policies ({@code all}, {@code second-sight})
     * @param realModel  the bundled model whose KV the sizes are for, or null for the scenario's own
     * @param drive      the drive the wear is for (a size), or null for each cell's L2
     * @param seed       the seed of every cell
     * @param shard      the cells this process runs
     * @param output     where the plan goes
     */
    public record Request(String scenario, List<String> sets, List<String> l1, List<String> l2,
                          List<String> admissions, String realModel, String drive, long seed, Shard shard,
                          PlanOutput.Where output) {
        public Request {
            sets = List.copyOf(sets);
            l1 = List.copyOf(l1);
            l2 = List.copyOf(l2);
            admissions = List.copyOf(admissions);
        }
    }

    public PlanJob(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs the shard's cells; the exit code. */
    public int run() {
        final Instant at = Instant.now();
        final List<Long> l1;
        final List<Long> l2;
        final List<L2Admission> admissions;
        final Long drive;
        final Scenario base;
        final KvScale scale;
        try {
            l1 = sizes("--l1", q.l1());
            l2 = sizes("--l2", q.l2());
            admissions = admissions(q.admissions());
            drive = q.drive() == null ? null : Sizes.parse(q.drive());
            // The grid sets L1 and L2; the scenario's own sizes (fractions of a whole trace's KV, say) may not load.
            final List<String> baseSets = new ArrayList<>(q.sets());
            baseSets.addAll(List.of("core.l1Bytes=1GiB", "core.l2Bytes=1GiB"));
            base = ScenarioLoader.load(q.scenario(), baseSets);
            scale = KvScale.of(base, q.realModel() == null ? null : ModelPresets.named(q.realModel()));
        } catch (final ScenarioException | IllegalArgumentException e) {
            return refuse(e.getMessage());
        }
        final String bad = q.output().check(q.shard(), q.scenario());
        if (bad != null) {
            return refuse(bad);
        }
        final Trace trace = base.spec().workload().trace();
        final Double ideal = trace == null ? null : IdealHits.ratio(trace, base.model().blockTokens());
        out.printf(Locale.ROOT, "plan %s: %d L1 x %d L2 sizes x %d policies = %d cells%s; %s%s%n", base.name(),
            l1.size(), l2.size(), admissions.size(), l1.size() * l2.size() * admissions.size(),
            q.shard().count() > 1 ? ", shard " + q.shard() : "", scale.format(), ideal == null ? ""
                : String.format(Locale.ROOT, "; the trace's ideal hit ratio %.1f %%", 100 * ideal));
        final List<PlanRow> rows = new ArrayList<>();
        long k = 0;
        for (final L2Admission a : admissions) {
            for (final long one : l1) {
                for (final long two : l2) {
                    if (q.shard().owns(k++)) {
                        final PlanRow row;
                        try {
                            row = cell(new PlanCell(one, two, a), scale, drive);
                        } catch (final ScenarioException | IllegalArgumentException e) {
                            return refuse("cell L1 " + PlanReport.size(one) + ", L2 " + PlanReport.size(two) + ", "
                                + new PlanCell(one, two, a).admissionName() + ": " + e.getMessage());
                        }
                        rows.add(row);
                    }
                }
            }
        }
        final PlanResult r = new PlanResult(PlanResult.FORMAT, base.name(), ShardSummary.digest(base), q.sets(),
            BuildInfo.commit(), command(), scale.format(), DriveWear.timeScale(base), ideal, drive, q.seed(), l1, l2,
            admissions.stream().map(x -> new PlanCell(0, 0, x).admissionName()).toList(), q.shard().toString(), rows);
        return q.output().write(r, q.shard().count() > 1, at, out, err);
    }

    private PlanRow cell(final PlanCell cell, final KvScale scale, final Long drive) throws ScenarioException {
        final List<String> sets = new ArrayList<>(q.sets());
        sets.add("core.l1Bytes=" + scale.simSlotsBytes(cell.l1Bytes()));
        sets.add("core.l2Bytes=" + scale.simSlotsBytes(cell.l2Bytes()));
        sets.add("core.l2Admission=" + cell.admissionName());
        final Scenario sc = ScenarioLoader.load(q.scenario(), sets);
        final Scenario scaled = new Scenario(sc.name(), sc.source(), sc.text(), sc.model(), sc.spec(),
            scale.scaled(sc.sim()), sc.knobs(), sc.gate(), sc.swarm(), sc.signoff(), sc.required(),
            sc.requiredMinSeeds());
        final long t0 = System.nanoTime();
        final RunReport r = Runs.virtual(scaled, q.seed());
        final PlanRow row = PlanRow.of(cell, r, scale, DriveWear.timeScale(sc), drive == null ? cell.l2Bytes()
            : drive, (System.nanoTime() - t0) / 1e9);
        out.printf(Locale.ROOT, "L1 %s, L2 %s, %s: hit %.1f %% (L1 %.1f %%, L2 %.1f %%), TTFT p50 %.0f ms p99 %.0f "
            + "ms, L2 writes %.1f MB/s (peak minute %.1f), %.2f drive writes a day; %s, %.1f s%n",
            PlanReport.size(cell.l1Bytes()), PlanReport.size(cell.l2Bytes()), cell.admissionName(),
            100 * row.hitRatio(), 100 * row.fromL1(), 100 * row.fromL2(), row.ttftP50Ms(), row.ttftP99Ms(),
            row.writeMeanBytesPerSec() / 1e6, row.writePeakBytesPerSec() / 1e6, row.driveWritesPerDay(),
            r.ok() ? "every invariant held" : "FAILED: " + r.violation(), row.wallSeconds());
        return row;
    }

    private static List<Long> sizes(final String option, final List<String> texts) {
        final List<Long> out = new ArrayList<>();
        for (final String t : texts) {
            for (final String one : t.split(",", -1)) {
                try {
                    final long bytes = Sizes.parse(one);
                    if (bytes <= 0) {
                        throw new IllegalArgumentException("must be more than 0, got \"" + one + "\"");
                    }
                    if (!out.contains(bytes)) {
                        out.add(bytes);
                    }
                } catch (final IllegalArgumentException e) {
                    throw new IllegalArgumentException(option + " " + e.getMessage(), e);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(option + " needs at least one size");
        }
        return out.stream().sorted().toList();
    }

    private static List<L2Admission> admissions(final List<String> texts) {
        final List<L2Admission> out = new ArrayList<>();
        for (final String t : texts) {
            for (final String one : t.split(",", -1)) {
                final L2Admission a = switch (one.strip()) {
                    case "all" -> L2Admission.ALL;
                    case "second-sight" -> L2Admission.SECOND_SIGHT;
                    default -> throw new IllegalArgumentException("--admission must be all or second-sight, got \""
                        + one + "\"");
                };
                if (!out.contains(a)) {
                    out.add(a);
                }
            }
        }
        return out.isEmpty() ? List.of(L2Admission.ALL) : out;
    }

    private int refuse(final String message) {
        err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }

    /** The command that makes the whole plan (the shard left out). */
    private String command() {
        final StringBuilder b = new StringBuilder("./kvtier plan ").append(q.scenario()).append(" --l1 ")
            .append(String.join(",", q.l1())).append(" --l2 ").append(String.join(",", q.l2()));
        if (!q.admissions().isEmpty()) {
            b.append(" --admission ").append(String.join(",", q.admissions()));
        }
        if (q.realModel() != null) {
            b.append(" --real-model ").append(q.realModel());
        }
        if (q.drive() != null) {
            b.append(" --drive ").append(q.drive());
        }
        for (final String s : q.sets()) {
            b.append(" --set ").append(s);
        }
        return b.append(" --seed ").append(q.seed()).toString();
    }
}
