package dev.kvtier.lab.crash;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.explore.SeedSet;
import dev.kvtier.lab.explore.ShardSummary;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.lab.run.RunNeeds;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A crash campaign on the real backend ({@code kvtier crash-campaign}): N times, run a scenario for real in a fresh
 * process, SIGKILL it at a seeded point spread over its life (set-up, its phases, checkpoints, shutdown, after its
 * end), recover its files in the next fresh process, and judge what recovery returned against what the run was told
 * ({@link KillLoop}, {@link Judge}): every recovered chunk's bytes, every commit that had to survive, and that the
 * recovered index is a prefix of the run's index log. Prints each kill's verdict, then the figures
 * ({@link CampaignFigures}); shards like an exploration, and writes a summary that {@link CampaignMerge} combines.
 *
 * <p>The campaign creates its L2 file and index (the device must not exist) and a working directory, and deletes all
 * three when every kill held; a failing kill keeps its files, and the device too when the campaign stopped there.
 */
public final class CrashCampaign {
    /** Most kills one campaign plans. */
    public static final long KILLS_MAX = 1_000_000;
    /** The longest timeout of a run: a day. */
    public static final long TIMEOUT_SECONDS_MAX = 86_400;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * What to run, as {@code kvtier crash-campaign} takes it.
     *
     * @param scenario       a library name or a path
     * @param sets           overrides for every run
     * @param device         the L2 file the campaign creates ({@code DEVICE.index} beside it); must not exist
     * @param io             {@code auto}, {@code uring} or {@code filechannel}
     * @param kills          how many kills, before sharding
     * @param from           the first kill's number (a kill's number is its run's seed)
     * @param shard          {@code i/n}, or null
     * @param shardFromEnv   take the shard from {@code environment}
     * @param environment    the environment the shard is read from
     * @param killAt         one kill point for every kill ({@link KillPoint}), or null to draw each
     * @param keepGoing      go on past a failing kill
     * @param summary        where the JSON summary goes (a directory when it ends in '/'), or null
     * @param work           the working directory (absent or empty), or null for one under {@code kvtier-out/}
     * @param timeoutSeconds the wall-time limit of one run and of one recovery
     * @param plant          a bug planted between each kill and its recovery ({@link PlantedBug#NONE} for none)
     * @param holder         the command line, named to another kvtier that finds the files taken
     */
    public record Request(String scenario, List<String> sets, Path device, String io, Long kills, long from,
                          String shard, boolean shardFromEnv, Map<String, String> environment, String killAt,
                          boolean keepGoing, String summary, Path work, long timeoutSeconds, PlantedBug plant,
                          String holder) {
        public Request {
            sets = List.copyOf(sets);
            environment = Map.copyOf(environment);
        }
    }

    /** A campaign of {@code q}, printing on {@code out} and {@code err}. */
    public CrashCampaign(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code: 0 every kill held, 1 one failed, 2 bad input, 3 a campaign process crashed. */
    public int run() {
        final SeedSet range;
        final KillPoint fixed;
        final Scenario sc;
        try {
            range = range();
            fixed = q.killAt() == null ? null : KillPoint.parse(q.killAt());
            sc = ScenarioLoader.load(q.scenario(), q.sets());
        } catch (final IllegalArgumentException | ScenarioException e) {
            return refuse(e.getMessage());
        }
        final Path work = q.work() != null ? q.work() : Outputs.ROOT.resolve("crash-campaign").resolve(sc.name()
            + "-kills-" + range.from() + "-" + (range.from() + range.seeds() - 1) + "-shard-" + range.shard().index()
            + "-of-" + range.shard().count());
        String bad = badScenario(sc);
        bad = bad != null ? bad : badFiles(work);
        if (bad != null) {
            return refuse(bad);
        }
        final boolean madeWork = !Files.exists(work);
        try {
            Files.createDirectories(work);
            return campaign(sc, range, fixed, new CampaignFiles(work, q.device()), madeWork);
        } catch (final IOException e) {
            return refuse(OutputFile.describe(work, e));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("kvtier: interrupted");
            return ExitCodes.INTERRUPTED;
        }
    }

    private int campaign(final Scenario sc, final SeedSet range, final KillPoint fixed, final CampaignFiles files,
                         final boolean madeWork) throws IOException, InterruptedException {
        final CommitMode mode = sc.spec().core().commitMode();
        out.printf(Locale.ROOT, "crash campaign: %s, commit mode %s, kills %d..%d (shard %s: %d kills), device %s "
            + "(created here, deleted at the end unless a kill fails), work %s%n", sc.name(), mode, range.from(),
            range.from() + range.seeds() - 1, range.shard(), range.planned(), files.device(), files.work());
        if (q.plant() != PlantedBug.NONE) {
            out.println("planted bug: " + q.plant().option() + " between every kill and its recovery (the campaign "
                + "must fail)");
        }
        final long t0 = System.nanoTime();
        final KillLoop loop = new KillLoop(q, files, sc.spec().core(), out);
        Life life = null;
        if (fixed == null && range.planned() > 0) {
            life = loop.measure();
            if (life == null) {
                return finish(loop, null, files, madeWork);
            }
            out.println("measured the run (seed " + KillLoop.MEASURING_SEED + ", not killed): " + life.describe());
        } else if (fixed != null) {
            out.println("every kill at " + fixed);
        }
        final List<Long> kills = new ArrayList<>();
        for (long k = range.first(); range.planned() > 0 && k <= range.last(); k += range.shard().count()) {
            kills.add(k);
        }
        loop.run(kills, fixed, life);
        final double wall = (System.nanoTime() - t0) / 1e9;
        final CampaignSummary s = new CampaignSummary(CampaignSummary.FORMAT, sc.name(), ShardSummary.digest(sc),
            q.sets(), BuildInfo.commit(), mode.name(), q.plant().option(), range, q.killAt(), loop.stoppedAt(), wall,
            loop.verdicts(), loop.failures());
        final CampaignFigures figures = CampaignFigures.of(loop.verdicts());
        figures.print(out, mode == CommitMode.DURABLE);
        CampaignFigures.printFailures(out, loop.failures());
        out.printf(Locale.ROOT, "%s: %d kills in %.1f s (%.2f s a kill)%n", figures.ok() ? "OK" : "FAILED",
            figures.kills(), wall, figures.kills() == 0 ? 0 : wall / figures.kills());
        if (q.summary() != null) {
            final Path file = summaryFile(range, sc.name());
            s.write(file);
            out.println("summary: " + file);
        }
        return finish(loop, figures, files, madeWork);
    }

    /** Cleans up what the campaign made (unless a failure keeps it) and says how it ended. */
    private int finish(final KillLoop loop, final CampaignFigures figures, final CampaignFiles files,
                       final boolean madeWork) throws IOException {
        if (loop.stoppedAt() == null) {
            Files.deleteIfExists(files.device());
            Files.deleteIfExists(files.index());
        }
        if (madeWork && loop.failures().isEmpty()) {
            try (Stream<Path> left = Files.list(files.work())) {
                if (left.findAny().isEmpty()) {
                    Files.delete(files.work());
                }
            }
        }
        if (loop.refused() != null) {
            err.println(loop.refused().startsWith("kvtier: ") ? loop.refused() : "kvtier: " + loop.refused());
            return loop.crashed() ? ExitCodes.CRASH : ExitCodes.BAD_INPUT;
        }
        if (loop.crashed()) {
            return ExitCodes.CRASH;
        }
        return figures == null || figures.ok() ? ExitCodes.OK : ExitCodes.INVARIANT;
    }

    private SeedSet range() {
        if (q.scenario() == null) {
            throw new IllegalArgumentException("crash-campaign needs a SCENARIO (a library name or a path)");
        }
        if (q.device() == null) {
            throw new IllegalArgumentException("crash-campaign needs --device PATH: the L2 file it creates");
        }
        if (q.kills() == null || q.kills() < 1 || q.kills() > KILLS_MAX) {
            throw new IllegalArgumentException("--kills must be in [1, " + KILLS_MAX + "], got " + (q.kills() == null
                ? "none" : q.kills()));
        }
        if (q.from() < 0 || q.from() > Long.MAX_VALUE - 1 - q.kills()) {
            throw new IllegalArgumentException("--from must be 0 or more, and below the measuring run's seed with "
                + "--kills, got " + q.from());
        }
        if (q.timeoutSeconds() < 1 || q.timeoutSeconds() > TIMEOUT_SECONDS_MAX) {
            throw new IllegalArgumentException("--timeout must be a number of seconds in [1, " + TIMEOUT_SECONDS_MAX
                + "], got " + q.timeoutSeconds());
        }
        if (!List.of("auto", "uring", "filechannel").contains(q.io())) {
            throw new IllegalArgumentException("--io must be auto, uring or filechannel, got " + q.io());
        }
        if (q.shardFromEnv() && q.shard() != null) {
            throw new IllegalArgumentException("--shard and --shard-from-env exclude each other");
        }
        final Shard s = q.shardFromEnv() ? Shard.fromEnv(q.environment()) : q.shard() == null ? Shard.ALL
            : Shard.parse(q.shard());
        return new SeedSet(q.from(), q.kills(), s);
    }

    /** Null, or why the campaign cannot judge this scenario's kills. */
    private static String badScenario(final Scenario sc) {
        if (sc.spec().workload().engine().connector().blocksPerKey() != 1) {
            return "crash-campaign checks a key's bytes slot by slot, and needs one block a key: "
                + "engine.blocksPerKey is " + sc.spec().workload().engine().connector().blocksPerKey();
        }
        for (final PhaseSpec p : sc.spec().workload().phases()) {
            if (!KillPoint.goodPhaseName(p.name())) {
                return "crash-campaign names kill points after phases: phase '" + p.name() + "' must be a name "
                    + "(a letter, then letters, digits, '-' or '_') other than " + KillPoint.RESERVED;
            }
        }
        return RunNeeds.check(sc, RunMode.REAL);
    }

    /** Null, or why the device, the working directory or the summary cannot be used. */
    private String badFiles(final Path work) {
        final CampaignFiles files = new CampaignFiles(Path.of("."), q.device());
        for (final Path p : List.of(q.device(), files.index())) {
            if (Files.exists(p) || Files.isSymbolicLink(p)) {
                return "--device: the campaign creates its own L2 file and index, and " + p + " exists; remove it or"
                    + " name another path";
            }
        }
        final Path parent = q.device().toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "--device " + q.device() + ": its directory " + parent + " does not exist";
        }
        if (Files.exists(work)) {
            if (!Files.isDirectory(work)) {
                return "--work " + work + " is a file; name a directory (absent or empty)";
            }
            try (Stream<Path> in = Files.list(work)) {
                if (in.findAny().isPresent()) {
                    return "the working directory " + work + " is not empty (an earlier campaign's files?); remove "
                        + "it, or name an absent or empty one with --work";
                }
            } catch (final IOException e) {
                return OutputFile.describe(work, e);
            }
        }
        if (q.summary() != null && !q.summary().endsWith("/") && !Files.isDirectory(Path.of(q.summary()))) {
            return OutputFile.check(Path.of(q.summary()), "--summary", List.of(q.device()));
        }
        return null;
    }

    private Path summaryFile(final SeedSet range, final String scenarioName) {
        final Path path = Path.of(q.summary());
        if (!q.summary().endsWith("/") && !Files.isDirectory(path)) {
            return path;
        }
        return path.resolve(scenarioName + "-kills-" + range.from() + "-" + (range.from() + range.seeds() - 1)
            + "-shard-" + range.shard().index() + "-of-" + range.shard().count() + ".json");
    }

    private int refuse(final String message) {
        err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }
}
