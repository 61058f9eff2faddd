package dev.kvtier.lab.crash;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts the campaign's processes ({@link CampaignChild}), one at a time: this JVM's own java binary, flags and class
 * path (so a child runs the same build with the same start-up cache), output and errors to a log file. A process
 * still running when the campaign's JVM exits (SIGINT, SIGTERM) is killed, so none outlives it.
 */
final class CampaignProcess {
    /** What a process killed by SIGKILL exits with. */
    static final int KILLED = 128 + 9;
    /** Flags of this JVM a child must not inherit: a start-up cache's training output, a debugger's agent. */
    private static final List<String> NOT_INHERITED = List.of("-XX:AOTCacheOutput=", "-agentlib:jdwp",
        "-XX:AOTMode=record", "-XX:AOTConfiguration=");
    private static final AtomicReference<Process> RUNNING = new AtomicReference<>();

    static {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            final Process p = RUNNING.get();
            if (p != null) {
                p.destroyForcibly();
            }
        }));
    }

    /**
     * How a process ended.
     *
     * @param status   its exit status ({@link #KILLED} after its SIGKILL), or -1 when it outlived its time limit
     * @param lastLine the last line it wrote that starts with {@code kvtier:} (its refusal or crash), or null
     */
    record Ended(int status, String lastLine) {}

    private CampaignProcess() {}

    /** Runs the job in {@code jobFile} in a new JVM, its output in {@code log}, for at most {@code limitSeconds}. */
    static Ended run(final Path jobFile, final Path log,
                     final long limitSeconds) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(command(jobFile)).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        RUNNING.set(p);
        try {
            if (!p.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor();
                return new Ended(-1, "kvtier: the campaign process did not end within " + limitSeconds + " s");
            }
            return new Ended(p.exitValue(), lastKvtierLine(log));
        } finally {
            RUNNING.set(null);
        }
    }

    private static List<String> command(final Path jobFile) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (NOT_INHERITED.stream().noneMatch(flag::startsWith)) {
                cmd.add(flag);
            }
        }
        if (!cmd.contains("--enable-native-access=ALL-UNNAMED")) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CampaignChild.class.getName(),
            jobFile.toString()));
        return cmd;
    }

    private static String lastKvtierLine(final Path log) throws IOException {
        String last = null;
        for (final String line : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.startsWith("kvtier: ")) {
                last = line;
            }
        }
        return last;
    }
}
