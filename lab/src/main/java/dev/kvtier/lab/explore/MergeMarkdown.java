package dev.kvtier.lab.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Renders a {@link MergeReport} as Markdown: totals, failures by invariant and event, gaps, probes. */
public final class MergeMarkdown {
    /** How many seeds of a failure group the Markdown lists (the JSON lists them all). */
    private static final int SEEDS_LISTED = 20;

    private MergeMarkdown() {}

    public static String render(final MergeReport r) {
        final StringBuilder b = new StringBuilder();
        b.append("# kvtier exploration: ").append(r.scenario()).append("\n\n");
        b.append("- code: `").append(r.code()).append('`');
        if ("unknown".equals(r.code())) {
            b.append(" (not built from git: the shards may come from different builds)");
        }
        b.append("\n- scenario digest: `").append(r.scenarioDigest()).append("`\n");
        b.append("- overrides: ").append(r.sets().isEmpty() ? "none" : "`" + String.join("` `", r.sets()) + "`")
            .append('\n');
        b.append(String.format("- %d summaries; %d of %d planned seeds run; %d failing; wall time %.1f s summed"
            + " over shards%n", r.shards().size(), r.seedsRun(), r.seedsPlanned() + r.seedsMissing(),
            r.failingSeeds(), r.wallSeconds()));
        failures(b, r.failures());
        gaps(b, r);
        probes(b, r);
        return b.toString();
    }

    private static void failures(final StringBuilder b, final List<MergeReport.FailureGroup> groups) {
        b.append("\n## Failures\n\n");
        if (groups.isEmpty()) {
            b.append("None: every invariant held on every seed run.\n");
            return;
        }
        b.append("| invariant | at event | seeds | first seed |\n|---|---|---:|---:|\n");
        for (final MergeReport.FailureGroup g : groups) {
            b.append("| ").append(g.invariant()).append(" | ").append(g.event()).append(" | ")
                .append(g.seeds().size()).append(" | ").append(g.seeds().getFirst()).append(" |\n");
        }
        for (final MergeReport.FailureGroup g : groups) {
            final Failure f = g.first();
            b.append("\n### ").append(g.signature()).append("\n\n");
            final List<Long> shown = g.seeds().subList(0, Math.min(SEEDS_LISTED, g.seeds().size()));
            b.append("Seeds: ").append(shown.toString().replaceAll("[\\[\\]]", ""))
                .append(g.seeds().size() > shown.size() ? " and " + (g.seeds().size() - shown.size()) + " more" : "")
                .append("\n\nFirst, seed ").append(f.seed()).append(": ").append(f.message()).append("\n\n")
                .append("Swarm draws: `").append(String.join("` `", f.swarm())).append("`\n\n")
                .append("```sh\n").append(f.reproduce()).append('\n');
            if (f.journal() != null) {
                b.append("./kvtier replay ").append(f.journal()).append('\n');
            }
            b.append("```\n");
        }
    }

    private static void gaps(final StringBuilder b, final MergeReport r) {
        if (r.missing().isEmpty() && r.notRun().isEmpty()) {
            return;
        }
        b.append("\n## Seeds not covered\n\n");
        for (final String m : r.missing()) {
            b.append("- missing: ").append(m).append('\n');
        }
        for (final String n : r.notRun()) {
            b.append("- ").append(n).append('\n');
        }
    }

    private static void probes(final StringBuilder b, final MergeReport r) {
        if (r.requirementNote() != null) {
            b.append("\nNot checked: ").append(r.requirementNote()).append(".\n");
        }
        if (!r.required().isEmpty()) {
            b.append("\n## Required probes\n\n");
            for (final Map.Entry<String, ProbeReach> e : r.required().entrySet()) {
                b.append("- ").append(e.getKey()).append(": ").append(e.getValue().seeds() == 0
                    ? "**reached by no shard**" : e.getValue().seeds() + " seeds").append('\n');
            }
        }
        b.append("\n## Probes\n\nCoverage probes (`kvtier probes` says what each means), with the seeds that reached")
            .append(" each.\n\n| probe | seeds | first seed |\n|---|---:|---:|\n");
        final List<String> none = new ArrayList<>();
        for (final Map.Entry<String, ProbeReach> e : r.probes().entrySet()) {
            final ProbeReach p = e.getValue();
            b.append("| ").append(e.getKey()).append(" | ").append(p.seeds()).append(" | ")
                .append(p.firstSeed() == null ? "-" : p.firstSeed()).append(" |\n");
            if (p.seeds() == 0) {
                none.add(e.getKey());
            }
        }
        b.append("\nReached by no seed (").append(none.size()).append("): ")
            .append(none.isEmpty() ? "none" : String.join(", ", none)).append('\n');
    }
}
