package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.baseline.BaselineJob;
import dev.kvtier.lab.baseline.Baselines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier baseline [--update] [SCENARIO...]}: the bundled scenarios against their committed baselines. */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = {"Compare the bundled scenarios' virtual-time figures (seed 1) with the baselines committed under "
        + "results/baselines, or rewrite them with --update.",
        "With --file FILE: one scenario of yours against the baseline you keep in FILE (exit 4 naming each figure "
            + "out of its band), or recorded there with --update."})
public final class BaselineCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SCENARIO", arity = "0..*", description = "library scenarios (default: all)")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--update", description = "write the current figures as the new baselines")
    boolean update;

    @Option(names = "--dir", paramLabel = "DIR", description = "the baselines' directory (default results/baselines)")
    Path dir = Baselines.DIR;

    @Option(names = "--file", paramLabel = "FILE", description = "one scenario (a library name or a path) against "
        + "the baseline in FILE, a file you keep in your repository; with --update, record it there")
    Path file;

    @Option(names = "--seed", description = "with --file --update: the seed to record (default 1)")
    Long seed;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "with --file --update: an override to record")
    List<String> sets = new ArrayList<>();

    @Option(names = "--figures", paramLabel = "PATTERN", description = "with --file --update: keep only these "
        + "figures (a name, or a prefix ending in *, e.g. 'ttft.cold.*'; repeatable)")
    List<String> only = new ArrayList<>();

    @Option(names = "--band", paramLabel = "PATTERN=FRACTION", description = "with --file --update: the relative "
        + "band of these figures, e.g. 'ttft.cold.*=0.10' (10 %%; repeatable, the first match wins)")
    Map<String, Double> bands = new LinkedHashMap<>();

    @Override
    public Integer call() {
        if (file == null && (seed != null || !sets.isEmpty() || !only.isEmpty() || !bands.isEmpty())) {
            System.err.println("kvtier: --seed, --set, --figures and --band go with --file");
            return ExitCodes.BAD_INPUT;
        }
        return new BaselineJob(scenarios, update, dir, file == null ? null : new BaselineJob.OwnFile(file, seed, sets,
            only, bands), System.out, System.err).run();
    }
}
