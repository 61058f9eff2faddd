package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.images.CrashImages;
import dev.kvtier.lab.images.PlantedFault;
import dev.kvtier.realio.device.IoChoice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kvtier crash-images SCENARIO --device F [--images N] [--seed S] [--record-max-mib M] [--keep-record DIR]
 * [--set ...]} (or {@code --from-record DIR} instead of {@code --device}, to check a kept record again): run the
 * scenario once for real with every write and flush of its devices recorded, build up to N disk images a power cut
 * during that run could have left (every flush point's prefixes, and seeded subsets of the writes in flight torn at 4
 * KiB), run the core's recovery on each, and check every recovered key's bytes, every commit that had to survive, and
 * that recovery is a prefix of the run's index log. This class parses the options and hands the work to lab's
 * {@link CrashImages}.
 */
@Command(name = "crash-images", mixinStandardHelpOptions = true,
    description = "Record one real run's writes and flushes, build the disk images a power cut could have left "
        + "(flush-point prefixes, seeded subsets of the writes in flight torn at 4 KiB), and check the core's "
        + "recovery on each: no wrong byte, no lost durable commit, a prefix of the index log.")
public final class CrashImagesCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "library name or path")
    String scenario;

    @Option(names = "--device", paramLabel = "PATH", description = "the L2 file the command creates (it must not "
        + "exist, nor DEVICE.index and DEVICE.acks beside it), on a file system with O_DIRECT (not tmpfs); deleted "
        + "at the end")
    Path device;

    @Option(names = "--images", paramLabel = "N", description = "how many images to build and check (default 1000)")
    int images = 1000;

    @Option(names = "--seed", description = "the run's seed and the image plan's (default 1)")
    long seed = 1;

    @Option(names = "--record-max-mib", paramLabel = "MIB", description = "the bound on the written contents the "
        + "record keeps in memory (default 1024)")
    long recordMib = 1024;

    @Option(names = "--io", description = "auto (io_uring, else FileChannel), uring or filechannel")
    IoChoice io = IoChoice.AUTO;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "wall-time limit of the run and of each "
        + "image's recovery (default 600)")
    long timeoutSeconds = 600;

    @Option(names = "--keep-record", paramLabel = "DIR", description = "keep the record (entries, written pages, "
        + "acknowledgements) in this new directory; a failing check keeps it under kvtier-out/crash-images/ anyway")
    Path keepRecord;

    @Option(names = "--from-record", paramLabel = "DIR", description = "check the images of a kept record again, "
        + "without running (give the same SCENARIO and --set; excludes --device)")
    Path fromRecord;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a scenario key")
    List<String> sets = new ArrayList<>();

    @Option(names = "--plant", paramLabel = "FAULT", hidden = true, description = "plant a fault in how images are "
        + "built or judged, to see the check fail: data-flush-ignored, ack-at-claim")
    String plant = PlantedFault.NONE.option();

    @Mixin
    Invoked invoked = new Invoked();

    @Override
    public Integer call() {
        final PlantedFault fault;
        try {
            fault = PlantedFault.parse(plant);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        return new CrashImages(new CrashImages.Request(scenario, sets, device, io.name().toLowerCase(Locale.ROOT),
            seed, images, recordMib, timeoutSeconds, fault, invoked.commandLine(), keepRecord, fromRecord), System.out,
            System.err).run();
    }
}
