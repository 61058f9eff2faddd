package dev.kvtier.cli;

import dev.kvtier.cli.explore.Explorer;
import dev.kvtier.cli.explore.Shard;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier explore SCENARIO --seeds N [--from S] [--shard i/n]}: seeds in virtual time, swarm knobs drawn per
 * seed, stop at the first failure with its journal and the commands that reproduce and replay it.
 */
@Command(name = "explore", mixinStandardHelpOptions = true,
    description = "Run many seeds in virtual time (swarm knobs per seed); stop at the first failing seed.")
public final class ExploreCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--seeds", required = true, description = "how many seeds (the whole range, before sharding)")
    long seeds;

    @Option(names = "--from", description = "first seed (default 1)")
    long from = 1;

    @Option(names = "--shard", paramLabel = "i/n", description = "run only shard i of n (CI matrix, batch jobs)")
    String shard = "0/1";

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a key for every seed")
    List<String> sets = new ArrayList<>();

    @Option(names = "--journals", paramLabel = "DIR", description = "where a failing seed's journal goes "
        + "(default target/explore)")
    Path journals = Path.of("target", "explore");

    @Override
    public Integer call() {
        if (seeds < 1) {
            System.err.println("kvtier: --seeds must be at least 1, got " + seeds);
            return ExitCodes.BAD_INPUT;
        }
        final Shard s;
        try {
            s = Shard.parse(shard);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final Explorer explorer = new Explorer(scenario, sets, System.out, System.err);
        return explorer.explore(Explorer.seeds(from, seeds, s), journals, System.console() != null, 10).exitCode();
    }
}
