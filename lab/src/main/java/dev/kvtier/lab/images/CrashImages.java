package dev.kvtier.lab.images;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.crash.AckLog;
import dev.kvtier.lab.crash.AckWriter;
import dev.kvtier.lab.run.RunNeeds;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.files.Force;
import dev.kvtier.realio.files.Holder;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.realio.record.IoLog;
import dev.kvtier.realio.record.RecordingDevice;
import dev.kvtier.realio.run.BadDevice;
import dev.kvtier.realio.run.RealRun;
import dev.kvtier.realio.run.RealTarget;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Crash images from a real run's I/O ({@code kvtier crash-images}): runs a scenario once for real with every write
 * and flush of its two devices recorded ({@link RecordingDevice}, {@link IoLog}) and its acknowledgements logged
 * ({@link AckWriter}), then builds up to N disk images a power cut during that run could have left
 * ({@link Timeline}, {@link ImagePlan}) and runs the core's recovery on each ({@link ImageChecker}). Prints the
 * record's size, the images built and checked, the violations (which must be 0) with the first few in full and the
 * command that runs it again, and the time each part took.
 *
 * <p>Files: it creates the L2 file, its index ({@code DEVICE.index}) and the acknowledgement log
 * ({@code DEVICE.acks}); none may exist. It deletes all three when it is done. Images are built in memory only. The
 * record is kept on disk ({@link RecordFiles}) in a new directory when asked, and when a check fails (under
 * {@code kvtier-out/crash-images/}), so that the same images can be checked again without a run.
 */
public final class CrashImages {
    /** Most images one command checks. */
    public static final int IMAGES_MAX = 10_000_000;
    /** The largest bound on the recorded contents, in MiB. */
    public static final long RECORD_MIB_MAX = 65_536;
    /** The longest timeout of the run and of one image's recovery: a day. */
    public static final long TIMEOUT_SECONDS_MAX = 86_400;
    /** Violations printed in full. */
    private static final int SHOWN_MAX = 5;

    private final Request q;
    private final PrintStream out;
    private final PrintStream err;
    /** This command created the acknowledgement log (so it may delete it). */
    private boolean acksMade;

    /**
     * What to run, as {@code kvtier crash-images} takes it.
     *
     * @param scenario       a library name or a path
     * @param sets           overrides
     * @param device         the L2 file it creates ({@code DEVICE.index} and {@code DEVICE.acks} beside it)
     * @param io             {@code auto}, {@code uring} or {@code filechannel}
     * @param seed           the run's seed, and the image plan's
     * @param images         how many images to build and check
     * @param recordMib      the bound on the recorded write contents, in MiB
     * @param timeoutSeconds the wall-time limit of the run, and of each image's recovery
     * @param plant          a fault planted in how images are built or judged ({@link PlantedFault#NONE} for none)
     * @param holder         the command line, named to another kvtier that finds the files taken
     * @param keepRecord     a new directory to keep the record in ({@link RecordFiles}), or null (a failing check
     *                       keeps it under {@code kvtier-out/crash-images/} anyway)
     * @param fromRecord     a kept record to check again instead of running (then {@code device} is null), or null
     */
    public record Request(String scenario, List<String> sets, Path device, String io, long seed, int images,
                          long recordMib, long timeoutSeconds, PlantedFault plant, String holder, Path keepRecord,
                          Path fromRecord) {
        public Request {
            sets = List.copyOf(sets);
            Objects.requireNonNull(plant, "plant");
        }
    }

    /** The command of {@code q}, printing on {@code out} and {@code err}. */
    public CrashImages(final Request q, final PrintStream out, final PrintStream err) {
        this.q = q;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code: 0 every image held, 1 a violation (or the run broke), 2 bad input. */
    public int run() {
        final Scenario sc;
        try {
            validate();
            sc = ScenarioLoader.load(q.scenario(), q.sets());
        } catch (final IllegalArgumentException | ScenarioException e) {
            return refuse(e.getMessage());
        }
        String bad = badScenario(sc);
        if (bad == null && q.fromRecord() != null) {
            return fromRecord(sc);
        }
        bad = bad != null ? bad : badFiles();
        if (bad != null) {
            return refuse(bad);
        }
        final Path index = sibling(".index");
        final Path acks = sibling(".acks");
        boolean created = false;
        try {
            out.printf(Locale.ROOT, "crash images: %s, commit mode %s, seed %d, %,d images, device %s (created here, "
                + "deleted at the end)%n", sc.name(), sc.spec().core().commitMode(), q.seed(), q.images(), q.device());
            final long t0 = System.nanoTime();
            final IoLog log = new IoLog(q.recordMib() << 20);
            // Both paths were absent: what is there from now on is this run's (a refused claim leaves nothing).
            created = true;
            final RealRun.Result r = record(sc, log, acks);
            final double recordS = (System.nanoTime() - t0) / 1e9;
            if (!r.report().ok() || r.shutdownError() != null) {
                out.println("FAILED: the recorded run itself broke: " + (r.report().ok() ? r.shutdownError()
                    : r.report().violation()));
                return ExitCodes.INVARIANT;
            }
            if (log.overflowed() != null) {
                return refuse(log.overflowed() + ": raise --record-max-mib or shrink the scenario");
            }
            final int code = check(sc, log, AckLog.read(acks), recordS);
            keep(sc, log, acks, code);
            return code;
        } catch (final BadDevice e) {
            created = false;
            return refuse(e.getMessage());
        } catch (final IOException e) {
            return refuse(OutputFile.describe(acks, e));
        } finally {
            cleanUp(created, index, acks);
        }
    }

    /** Checks the images of the record in {@code --from-record} again. */
    private int fromRecord(final Scenario sc) {
        out.printf(Locale.ROOT, "crash images: %s, commit mode %s, seed %d, %,d images, from the record in %s%n",
            sc.name(), sc.spec().core().commitMode(), q.seed(), q.images(), q.fromRecord());
        final RecordFiles.Saved saved;
        try {
            saved = RecordFiles.read(q.fromRecord(), q.recordMib() << 20);
        } catch (final IOException e) {
            return refuse("--from-record: " + e.getMessage());
        }
        final int code = check(sc, saved.log(), saved.acks(), 0);
        if (code == ExitCodes.INVARIANT) {
            out.println("check it again: " + command(q.fromRecord()));
        }
        return code;
    }

    /** Keeps the record where {@code --keep-record} says, or when the check failed, under kvtier-out/. */
    private void keep(final Scenario sc, final IoLog log, final Path acks, final int code) throws IOException {
        Path dir = q.keepRecord();
        if (dir == null && code == ExitCodes.INVARIANT) {
            final Path base = Outputs.defaultPath("crash-images", sc.name() + "-seed-" + q.seed() + "-record");
            Files.createDirectories(base.getParent());
            dir = base;
            for (int n = 2; Files.exists(dir) && n < 1000; n++) {
                dir = base.resolveSibling(base.getFileName() + "-" + n);
            }
        }
        if (dir == null) {
            return;
        }
        RecordFiles.write(dir, log, acks);
        out.printf(Locale.ROOT, "record kept in %s (%.1f MiB)%s%n", dir, (log.pages().bytes() + Files.size(dir
            .resolve("record.txt")) + Files.size(dir.resolve("acks.txt"))) / 1048576.0, code == ExitCodes.OK ? ""
                : "; check its images again: " + command(dir));
    }

    private RealRun.Result record(final Scenario sc, final IoLog log, final Path acks) throws IOException, BadDevice {
        final CoreConfig config = sc.spec().core();
        final RealTarget target = new RealTarget(q.device(), null, false, IoChoice.valueOf(q.io().toUpperCase(
            Locale.ROOT)), q.timeoutSeconds() * 1_000_000_000L, Force.NONE, Holder.current(q.holder()));
        try (AckWriter writer = new AckWriter(acks, null, KvServer.indexLayout(config).logOffset(), () -> {})) {
            acksMade = true;
            final long t0 = System.nanoTime();
            final RealRun.Result r = Runs.real(sc, q.seed(), target, List.of(log, writer),
                (role, device, memory) -> new RecordingDevice(device, role, log, memory), out);
            out.printf(Locale.ROOT, "recorded the run (seed %d) in %.2f s: %s%n", q.seed(),
                (System.nanoTime() - t0) / 1e9, r.report().ok() ? "it held" : "it broke");
            return r;
        }
    }

    private int check(final Scenario sc, final IoLog log, final AckLog acks, final double recordS) {
        final CoreConfig config = sc.spec().core();
        final Timeline t = Timeline.of(log, q.plant());
        if (t.writes().isEmpty()) {
            return refuse("the run wrote nothing to its devices: no image to build");
        }
        ImageFigures.printRecord(out, log, t);
        if (q.plant() != PlantedFault.NONE) {
            out.println("planted fault: " + q.plant().option() + " (the images must show violations)");
        }
        final long p0 = System.nanoTime();
        final ImagePlan plan = ImagePlan.of(t, q.images(), q.seed());
        out.printf(Locale.ROOT, "planned %,d images in %.2f s: %,d prefix images at %d flush points (of %,d possible), "
            + "%,d seeded subsets with %,d writes torn at 4 KiB; %,d distinct%n", plan.images().size(),
            (System.nanoTime() - p0) / 1e9, plan.prefixes(), t.flushes(), plan.prefixPossible(),
            plan.images().size() - plan.prefixes(), plan.tornWrites(), plan.distinct(t));
        final ImageChecker checker = new ImageChecker(config, t, log.pages(), acks, RealRun.indexDeviceBytes(config),
            q.timeoutSeconds() * 1_000_000_000L, q.plant());
        final ImageFigures figures = new ImageFigures(out, SHOWN_MAX);
        final long c0 = System.nanoTime();
        final int every = Math.max(1, plan.images().size() / 10);
        for (final ImagePlan.Image image : plan.images()) {
            figures.add(image, checker.check(image));
            if ((image.number() + 1) % every == 0) {
                out.printf(Locale.ROOT, "  %,d images checked, %,d violations, %.1f s%n", image.number() + 1,
                    figures.violations(), (System.nanoTime() - c0) / 1e9);
            }
        }
        return figures.finish(config.commitMode(), recordS, (System.nanoTime() - c0) / 1e9);
    }

    /** The command that checks the same images of the record in {@code dir}. */
    private String command(final Path dir) {
        final StringBuilder b = new StringBuilder("./kvtier crash-images " + q.scenario() + " --from-record " + dir
            + " --seed " + q.seed() + " --images " + q.images());
        for (final String s : q.sets()) {
            b.append(" --set ").append(s);
        }
        if (q.plant() != PlantedFault.NONE) {
            b.append(" --plant ").append(q.plant().option());
        }
        return b.toString();
    }

    private void cleanUp(final boolean created, final Path index, final Path acks) {
        try {
            if (created) {
                Files.deleteIfExists(q.device());
                Files.deleteIfExists(index);
            }
            if (acksMade) {
                Files.deleteIfExists(acks);
            }
        } catch (final IOException e) {
            err.println("kvtier: could not delete a file this command created: " + e.getMessage());
        }
    }

    private Path sibling(final String suffix) {
        return q.device().resolveSibling(q.device().getFileName() + suffix);
    }

    private void validate() {
        if (q.scenario() == null) {
            throw new IllegalArgumentException("crash-images needs a SCENARIO (a library name or a path)");
        }
        if (q.device() == null && q.fromRecord() == null) {
            throw new IllegalArgumentException("crash-images needs --device PATH (the L2 file it creates) or "
                + "--from-record DIR (a kept record)");
        }
        if (q.fromRecord() != null && (q.device() != null || q.keepRecord() != null)) {
            throw new IllegalArgumentException("--from-record checks a kept record without running: it excludes "
                + "--device and --keep-record");
        }
        if (q.fromRecord() != null && !Files.isRegularFile(q.fromRecord().resolve("record.txt"))) {
            throw new IllegalArgumentException("--from-record " + q.fromRecord() + " holds no record.txt: name a "
                + "directory --keep-record made");
        }
        if (q.keepRecord() != null && (Files.exists(q.keepRecord()) || Files.isSymbolicLink(q.keepRecord()))) {
            throw new IllegalArgumentException("--keep-record " + q.keepRecord() + " exists: name a new directory");
        }
        final Path keepParent = q.keepRecord() == null ? null : q.keepRecord().toAbsolutePath().getParent();
        if (q.keepRecord() != null && (keepParent == null || !Files.isDirectory(keepParent))) {
            throw new IllegalArgumentException("--keep-record " + q.keepRecord() + ": its directory " + keepParent
                + " does not exist");
        }
        if (q.images() < 1 || q.images() > IMAGES_MAX) {
            throw new IllegalArgumentException("--images must be in [1, " + IMAGES_MAX + "], got " + q.images());
        }
        if (q.recordMib() < 1 || q.recordMib() > RECORD_MIB_MAX) {
            throw new IllegalArgumentException("--record-max-mib must be in [1, " + RECORD_MIB_MAX + "], got "
                + q.recordMib());
        }
        if (q.timeoutSeconds() < 1 || q.timeoutSeconds() > TIMEOUT_SECONDS_MAX) {
            throw new IllegalArgumentException("--timeout must be a number of seconds in [1, " + TIMEOUT_SECONDS_MAX
                + "], got " + q.timeoutSeconds());
        }
        if (!List.of("auto", "uring", "filechannel").contains(q.io())) {
            throw new IllegalArgumentException("--io must be auto, uring or filechannel, got " + q.io());
        }
    }

    /** Null, or why the images of this scenario cannot be judged. */
    private static String badScenario(final Scenario sc) {
        if (sc.spec().workload().engine().connector().blocksPerKey() != 1) {
            return "crash-images checks a key's bytes slot by slot, and needs one block a key: engine.blocksPerKey is "
                + sc.spec().workload().engine().connector().blocksPerKey();
        }
        if (sc.spec().core().l2Bytes() / 4096 > Integer.MAX_VALUE) {
            return "crash-images maps the L2 device page by page, and needs core.l2Bytes below 8 TiB";
        }
        return RunNeeds.check(sc, RunMode.REAL);
    }

    /** Null, or why the device cannot be used. */
    private String badFiles() {
        for (final Path p : List.of(q.device(), sibling(".index"), sibling(".acks"))) {
            if (Files.exists(p) || Files.isSymbolicLink(p)) {
                return "--device: crash-images creates its own L2 file, index and acknowledgement log, and " + p
                    + " exists; remove it or name another path";
            }
        }
        final Path parent = q.device().toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "--device " + q.device() + ": its directory " + parent + " does not exist";
        }
        return null;
    }

    private int refuse(final String message) {
        err.println("kvtier: " + message);
        return ExitCodes.BAD_INPUT;
    }
}
