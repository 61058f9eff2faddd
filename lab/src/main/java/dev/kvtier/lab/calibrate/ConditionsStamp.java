package dev.kvtier.lab.calibrate;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A profile's conditions: a profile this run measured gets the conditions it was measured on as a comment line
 * after its first line (rewritten whole, {@link OutputFile}); a profile it was given is compared with today's
 * conditions, and each difference that changes a figure is a {@code WARNING} line.
 */
final class ConditionsStamp {
    private ConditionsStamp() {}

    /**
     * Stamps {@code measured} (a profile this run wrote, or null) or checks {@code given} (a profile it was given, or
     * null) against {@code now}; returns the warning lines.
     */
    static List<String> apply(final Path measured, final Path given, final Conditions now) throws IOException {
        if (measured != null && Files.isRegularFile(measured)) {
            stamp(measured, now);
            return List.of();
        }
        if (given == null) {
            return List.of();
        }
        final Optional<Conditions> then = Conditions.fromProfile(given);
        if (then.isEmpty()) {
            return List.of("WARNING: profile " + given + " does not say what it was measured on (no conditions line):"
                + " it may not fit this machine");
        }
        final List<String> out = new ArrayList<>();
        for (final String d : then.get().differences(now)) {
            out.add("WARNING: profile " + given.getFileName() + " was measured on other conditions: " + d);
        }
        return out;
    }

    private static void stamp(final Path profile, final Conditions c) throws IOException {
        final List<String> lines = new ArrayList<>(Files.readAllLines(profile));
        lines.removeIf(l -> l.startsWith("# conditions: "));
        lines.add(lines.isEmpty() ? 0 : 1, c.profileLine());
        OutputFile.writeString(profile, String.join("\n", lines) + "\n");
    }
}
