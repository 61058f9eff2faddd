package dev.kvtier.lab.results;

import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A result's metadata, {@code result.json} in its folder, written by the tool with the result: what it is, when it
 * was made, its verdict and headline figures, the conditions it was measured in, and which earlier result it
 * supersedes and why.
 *
 * @param kind       {@link ResultKind#id}: {@code signoff}, {@code fidelity}, {@code calibration} or {@code sweep}
 * @param scenario   the scenario ({@code fidelity} for a matrix, {@code calibrate} for a calibration)
 * @param host       the machine's name
 * @param created    when the command started, an ISO-8601 instant in UTC ({@code 2026-12-03T08:33:00Z})
 * @param verdict    {@code PASS} or {@code FAIL}, or null for a kind without one (calibrations, sweeps)
 * @param headline   the figures a reader looks at first, in order, each already formatted with its unit
 * @param conditions what the result was measured on and with, when known, or null
 * @param supersedes the folder name of the result this one supersedes (the previous result of the same kind,
 *                   scenario and host), or null for the first
 * @param why        why it was made, or what it was (the command's {@code --why}), or null
 */
public record ResultInfo(String kind, String scenario, String host, String created, String verdict,
                         Map<String, String> headline, String conditions, String supersedes, String why) {
    /** The metadata file's name in a result folder. */
    public static final String FILE = "result.json";

    public ResultInfo {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(created, "created");
        if (ResultKind.of(kind).isEmpty()) {
            throw new IllegalArgumentException("kind " + kind + " is not one of signoff, fidelity, calibration, sweep");
        }
        if (verdict != null && !verdict.equals("PASS") && !verdict.equals("FAIL")) {
            throw new IllegalArgumentException("verdict " + verdict + " is not PASS, FAIL or null");
        }
        try {
            Instant.parse(created);
        } catch (final DateTimeParseException e) {
            throw new IllegalArgumentException("created " + created + " is not an ISO-8601 instant", e);
        }
        headline = Collections.unmodifiableMap(new LinkedHashMap<>(headline == null ? Map.of() : headline));
    }

    /** The kind, as an enum. */
    public ResultKind resultKind() {
        return ResultKind.of(kind).orElseThrow();
    }

    /** {@link #created} as an instant. */
    public Instant createdAt() {
        return Instant.parse(created);
    }

    /**
     * The metadata of a new result the tool wrote: of {@code kind}, {@code scenario} and {@code host}, started
     * {@code at}, with its {@code report} (null for a calibration) from which the verdict, the headline figures and
     * the conditions come (with this build's commit), superseding {@code supersedes} (a folder name, or null), made
     * for {@code why} (or null).
     */
    public static ResultInfo of(final ResultKind kind, final String scenario, final String host, final Instant at,
                                final Object report, final String supersedes, final String why) {
        final JsonNode tree = report == null ? null : ReportJson.mapper().valueToTree(report);
        final String commit = BuildInfo.commit();
        final String code = commit.length() == 40 ? commit.substring(0, 12) : commit;
        final boolean judged = tree != null && (kind == ResultKind.SIGNOFF || kind == ResultKind.FIDELITY);
        return new ResultInfo(kind.id(), scenario, host, at.truncatedTo(ChronoUnit.SECONDS).toString(),
            judged ? Headlines.verdict(tree) : null, tree == null ? Map.of() : Headlines.of(kind, tree),
            judged ? Headlines.conditions(tree, code) : "code " + code, supersedes, oneLine(why));
    }

    /** {@code text} on one line, or null when it is null or blank. */
    static String oneLine(final String text) {
        return text == null || text.isBlank() ? null : text.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** {@code PASS} or {@code FAIL} for a verdict, null for none. */
    public static String verdict(final boolean pass) {
        return pass ? "PASS" : "FAIL";
    }

    /** Writes {@code folder/result.json}, whole or not at all; returns the file. */
    public Path write(final Path folder) throws IOException {
        final Path file = folder.resolve(FILE);
        OutputFile.writeString(file, ReportJson.toJson(this) + "\n");
        return file;
    }

    /** Reads {@code folder/result.json}; an unreadable or malformed file is an IOException naming it. */
    public static ResultInfo read(final Path folder) throws IOException {
        final Path file = folder.resolve(FILE);
        try {
            return ReportJson.mapper().readValue(Files.readString(file), ResultInfo.class);
        } catch (final JacksonException e) {
            throw new IOException(file + ": not a result's metadata: " + e.getMessage(), e);
        }
    }
}
