package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.crash.CrashCampaign;
import dev.kvtier.lab.crash.PlantedBug;
import dev.kvtier.lab.explore.Shard;
import dev.kvtier.realio.device.IoChoice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier crash-campaign SCENARIO --device F --kills N [--from K] [--kill-at POINT] [--shard i/n |
 * --shard-from-env] [--keep-going] [--summary FILE] [--set ...]}: N times, run the scenario for real in a fresh
 * process, SIGKILL it at a seeded point of its life, recover its files in the next fresh process, and check every
 * recovered key's bytes, every commit that had to survive, and that recovery is a prefix of the run's index log. This
 * class parses the options and hands the campaign to lab's {@link CrashCampaign}.
 */
@Command(name = "crash-campaign", mixinStandardHelpOptions = true,
    description = {"Kill a real run with SIGKILL at seeded points of its life, N times, and check each recovery "
        + "(in a fresh process): no wrong byte, no lost durable commit, a prefix of the index log.",
        "'kvtier crash-campaign merge FILE...' combines the --summary files of many shards."})
public final class CrashCampaignCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--device", paramLabel = "PATH", description = "the L2 file the campaign creates (it must not "
        + "exist; DEVICE.index beside it), on a file system with O_DIRECT (not tmpfs); deleted at the end")
    Path device;

    @Option(names = "--kills", description = "how many kills (the whole range, before sharding); required")
    Long kills;

    @Option(names = "--from", description = "the first kill's number (default 1); kill K runs the scenario with seed K")
    long from = 1;

    @Option(names = "--kill-at", paramLabel = "POINT", description = "kill every run at this point instead of drawing "
        + "one per kill: setup+E, PHASE+E (cold+812), checkpoint.N+E, shutdown+E or end (E: core events after it)")
    String killAt;

    @Option(names = "--shard", paramLabel = "i/n", description = "run only shard i of n: the kills whose offset from "
        + "--from is i modulo n")
    String shard;

    @Option(names = "--shard-from-env", description = "take the shard from the environment: index from "
        + Shard.INDEX_ENV + " (a Kubernetes Indexed Job sets it), count from " + Shard.COUNT_ENV)
    boolean shardFromEnv;

    @Option(names = "--keep-going", description = "go on past a failing kill (keeping its logs) instead of stopping "
        + "there with its files")
    boolean keepGoing;

    @Option(names = "--summary", paramLabel = "FILE", description = "write a JSON summary of this shard (a directory, "
        + "or a path ending in /, gets a file named after the scenario, kills and shard)")
    String summary;

    @Option(names = "--work", paramLabel = "DIR", description = "the working directory, absent or empty (default "
        + "kvtier-out/crash-campaign/SCENARIO-kills-FROM-TO-shard-I-of-N); removed when every kill held")
    Path work;

    @Option(names = "--io", description = "auto (io_uring, else FileChannel), uring or filechannel")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "wall-time limit of one run and of one "
        + "recovery (default 600)")
    long timeoutSeconds = 600;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a scenario key for every run")
    List<String> sets = new ArrayList<>();

    @Option(names = "--plant", paramLabel = "BUG", hidden = true, description = "plant a bug between each kill and "
        + "its recovery, to see the campaign fail: wipe-index-log")
    String plant = PlantedBug.NONE.option();

    @Mixin
    Invoked invoked = new Invoked();

    /** The environment {@code --shard-from-env} reads (tests replace it). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() {
        final PlantedBug bug;
        try {
            bug = PlantedBug.parse(plant);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        return new CrashCampaign(new CrashCampaign.Request(scenario, sets, device, io.name().toLowerCase(Locale.ROOT),
            kills, from, shard, shardFromEnv, environment, killAt, keepGoing, summary, work, timeoutSeconds, bug,
            invoked.commandLine()), System.out, System.err).run();
    }
}
