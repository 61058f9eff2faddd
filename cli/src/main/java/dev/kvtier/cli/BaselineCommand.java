package dev.kvtier.cli;

import dev.kvtier.lab.baseline.BaselineJob;
import dev.kvtier.lab.baseline.Baselines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier baseline [--update] [SCENARIO...]}: the bundled scenarios against their committed baselines. */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = "Compare the bundled scenarios' virtual-time figures (seed 1) with the baselines committed under "
        + "results/baselines, or rewrite them with --update.")
public final class BaselineCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SCENARIO", arity = "0..*", description = "library scenarios (default: all)")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--update", description = "write the current figures as the new baselines")
    boolean update;

    @Option(names = "--dir", paramLabel = "DIR", description = "the baselines' directory (default results/baselines)")
    Path dir = Baselines.DIR;

    @Override
    public Integer call() {
        return new BaselineJob(scenarios, update, dir, System.out, System.err).run();
    }
}
