package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** One {@link Main#execute} with standard output and error captured (tests run one at a time in this module). */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(final String... args) {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code kvtier run SCENARIO --seed SEED --journal DIR [--set ...]}, which must pass. */
    static Path record(final Path dir, final String scenario, final long seed, final String... sets) {
        final String[] args = new String[6 + 2 * sets.length];
        args[0] = "run";
        args[1] = scenario;
        args[2] = "--seed";
        args[3] = Long.toString(seed);
        args[4] = "--journal";
        args[5] = dir.toString();
        for (int i = 0; i < sets.length; i++) {
            args[6 + 2 * i] = "--set";
            args[7 + 2 * i] = sets[i];
        }
        final CliRun run = of(args);
        if (run.exitCode() != ExitCodes.OK) {
            throw new AssertionError("run failed with " + run.exitCode() + ": " + run.err());
        }
        return dir;
    }
}
