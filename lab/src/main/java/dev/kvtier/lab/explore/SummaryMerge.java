package dev.kvtier.lab.explore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Combines shard summaries into one {@link MergeReport}. It refuses (an {@link IllegalArgumentException} naming the
 * files) summaries of different scenarios or code, and summaries whose planned seeds overlap; it reports the shards
 * of a planned range that no summary covers and the seeds a stopped shard did not run.
 */
public final class SummaryMerge {
    private SummaryMerge() {}

    /** One summary and the file it came from. */
    public record Named(String file, ShardSummary summary) {}

    /**
     * The merged report; the probes it requires are those {@code --require} names ({@code required}) and those every
     * summary's scenario requires ({@code [coverage] required}), one mechanism for both.
     */
    public static MergeReport merge(final List<Named> summaries, final List<String> required) {
        if (summaries.isEmpty()) {
            throw new IllegalArgumentException("no summaries to merge");
        }
        final Named head = summaries.getFirst();
        for (final Named n : summaries) {
            checkSame(head, n);
        }
        checkDisjoint(summaries);
        final SortedMap<String, ProbeReach> probes = probes(summaries);
        final SortedMap<String, ProbeReach> req = new TreeMap<>();
        for (final String name : required) {
            final ProbeReach p = probes.get(name);
            if (p == null) {
                throw new IllegalArgumentException("--require " + name + ": no summary has a probe of that name"
                    + " (probes: " + String.join(", ", probes.keySet()) + ")");
            }
            req.put(name, p);
        }
        final long seedsRun = summaries.stream().mapToLong(n -> n.summary().seedsRun()).sum();
        final long minSeeds = summaries.stream().mapToLong(n -> n.summary().requiredMinSeeds()).max().orElse(1);
        String requirementNote = null;
        for (final Named n : summaries) {
            if (n.summary().required().isEmpty()) {
                continue;
            }
            if (seedsRun < minSeeds) {
                requirementNote = "the scenario's " + n.summary().required().size() + " required probes are checked"
                    + " from " + minSeeds + " seeds ([coverage] minSeeds); " + seedsRun + " ran";
                continue;
            }
            for (final String name : n.summary().required()) {
                req.put(name, probes.get(name));
            }
        }
        final List<MergeReport.ShardLine> lines = new ArrayList<>();
        final List<String> notRun = new ArrayList<>();
        long planned = 0;
        long run = 0;
        double wall = 0;
        for (final Named n : summaries) {
            final ShardSummary s = n.summary();
            lines.add(new MergeReport.ShardLine(n.file(), s.range(), s.seedsRun(), s.stoppedAt(),
                s.failures().size(), s.interrupted()));
            planned += s.seedsPlanned();
            run += s.seedsRun();
            wall += s.wallSeconds();
            if (s.seedsRun() < s.seedsPlanned()) {
                notRun.add(s.range() + " (" + n.file() + ") " + (s.interrupted() ? "interrupted after seed "
                    : "stopped at seed ") + s.stoppedAt() + ": " + (s.seedsPlanned() - s.seedsRun())
                    + " later seeds not run" + (s.interrupted() ? " (a partial summary)" : ""));
            }
        }
        final Missing missing = missing(summaries);
        final List<MergeReport.FailureGroup> groups = groups(summaries);
        final long failing = groups.stream().mapToLong(g -> g.seeds().size()).sum();
        final ShardSummary s = head.summary();
        return new MergeReport(s.scenario(), s.scenarioDigest(), s.sets(), s.code(), lines, missing.shards(),
            notRun, planned, run, missing.seeds(), failing, wall, groups, probes, req, requirementNote);
    }

    private static void checkSame(final Named head, final Named n) {
        final ShardSummary a = head.summary();
        final ShardSummary b = n.summary();
        if (!a.scenario().equals(b.scenario()) || !a.scenarioDigest().equals(b.scenarioDigest())) {
            throw new IllegalArgumentException(head.file() + " ran scenario " + a.scenario() + " (digest "
                + a.scenarioDigest() + ", overrides " + a.sets() + ") but " + n.file() + " ran " + b.scenario()
                + " (digest " + b.scenarioDigest() + ", overrides " + b.sets() + "): not one exploration");
        }
        if (!a.code().equals(b.code())) {
            throw new IllegalArgumentException(head.file() + " was built from commit " + a.code() + " but "
                + n.file() + " from " + b.code() + ": not one exploration");
        }
    }

    /** Refuses two summaries that plan a seed in common (their ranges need not be alike). */
    private static void checkDisjoint(final List<Named> summaries) {
        for (int i = 0; i < summaries.size(); i++) {
            for (int j = i + 1; j < summaries.size(); j++) {
                final SeedSet a = summaries.get(i).summary().range();
                final SeedSet b = summaries.get(j).summary().range();
                final Long shared = a.firstShared(b);
                if (shared != null) {
                    throw new IllegalArgumentException(summaries.get(i).file() + " (" + a + ") and "
                        + summaries.get(j).file() + " (" + b + ") overlap: both plan seed " + shared);
                }
            }
        }
    }

    private record Missing(List<String> shards, long seeds) {}

    /** For each planned range (from, seeds, shard count), the shard indexes no summary has. */
    private static Missing missing(final List<Named> summaries) {
        final Map<List<Long>, TreeSet<Integer>> present = new LinkedHashMap<>();
        for (final Named n : summaries) {
            final SeedSet r = n.summary().range();
            present.computeIfAbsent(List.of(r.from(), r.seeds(), (long) r.shard().count()), k -> new TreeSet<>())
                .add(r.shard().index());
        }
        final List<String> shards = new ArrayList<>();
        long seeds = 0;
        for (final Map.Entry<List<Long>, TreeSet<Integer>> e : present.entrySet()) {
            final long from = e.getKey().get(0);
            final long count = e.getKey().get(1);
            final int n = Math.toIntExact(e.getKey().get(2));
            for (int i = 0; i < n; i++) {
                if (!e.getValue().contains(i)) {
                    final SeedSet absent = new SeedSet(from, count, new Shard(i, n));
                    shards.add(absent + " (" + absent.planned() + " seeds)");
                    seeds += absent.planned();
                }
            }
        }
        return new Missing(shards, seeds);
    }

    private static SortedMap<String, ProbeReach> probes(final List<Named> summaries) {
        final SortedMap<String, ProbeReach> probes = new TreeMap<>();
        for (final Named n : summaries) {
            n.summary().probes().forEach((name, p) -> probes.merge(name, p, ProbeReach::plus));
        }
        return probes;
    }

    /** Failures grouped by signature: most seeds first, then by lowest seed. */
    private static List<MergeReport.FailureGroup> groups(final List<Named> summaries) {
        final SortedMap<String, List<Failure>> bySignature = new TreeMap<>();
        for (final Named n : summaries) {
            for (final Failure f : n.summary().failures()) {
                bySignature.computeIfAbsent(f.signature(), k -> new ArrayList<>()).add(f);
            }
        }
        final List<MergeReport.FailureGroup> groups = new ArrayList<>();
        for (final List<Failure> fs : bySignature.values()) {
            fs.sort(Comparator.comparingLong(Failure::seed));
            final Failure first = fs.getFirst();
            groups.add(new MergeReport.FailureGroup(first.invariant(), first.event(),
                fs.stream().map(Failure::seed).toList(), first));
        }
        groups.sort(Comparator.comparingInt((MergeReport.FailureGroup g) -> -g.seeds().size())
            .thenComparingLong(g -> g.seeds().getFirst()));
        return groups;
    }
}
