package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.run.RunJob;
import dev.kvtier.journal.replay.Replay;
import dev.kvtier.journal.replay.Replayer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier replay DIR [--until N]}: feeds a journal's inputs to a fresh core and compares every decision. Exit 0
 * when identical (or stopped where asked), 1 at the first divergence, 2 for a bad journal, 3 when the core throws.
 * {@code --repeat N} replays it N times in one JVM (the warmed cost of an event), stopping at the first that fails.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Replay a journal against a fresh core; report 'identical' or the first divergence.")
public final class ReplayCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "journal directory (kvtier run --journal DIR)")
    Path dir;

    @Option(names = "--until", paramLabel = "N",
        description = "stop after the step that holds event N and print the core's state")
    Long until;

    @Option(names = "--repeat", paramLabel = "N", description = "replay N times in this JVM (each replay checks every "
        + "event as the first does) and print each one's events/s: the later ones after the JIT's warm-up")
    int repeat = 1;

    @Option(names = "--salvage", description = "replay a journal whose writer was killed (SIGKILL, power: no seal, no "
        + "end record) up to its last complete block, and say how much it kept")
    boolean salvage;

    @Override
    public Integer call() {
        if (repeat < 1 || repeat > RunJob.REPEAT_MAX) {
            System.err.println("kvtier: --repeat must be in [1, " + RunJob.REPEAT_MAX + "], got " + repeat);
            return ExitCodes.BAD_INPUT;
        }
        int code = Replay.OK;
        for (int i = 1; i <= repeat && code == Replay.OK; i++) {
            if (repeat > 1) {
                System.out.println("== replay " + i + " of " + repeat);
            }
            code = Replay.replay(dir, until == null ? Replayer.TO_END : until, salvage, System.out, System.err);
        }
        return switch (code) {
            case Replay.OK -> ExitCodes.OK;
            case Replay.DIVERGED -> ExitCodes.INVARIANT;
            case Replay.BAD -> ExitCodes.BAD_INPUT;
            case Replay.CRASH -> ExitCodes.CRASH;
            default -> throw new IllegalStateException("replay returned exit code " + code);
        };
    }
}
