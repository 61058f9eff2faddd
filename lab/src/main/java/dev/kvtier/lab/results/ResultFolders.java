package dev.kvtier.lab.results;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Result folders under a results root: {@code ROOT/<kind>/<YYYY-MM-DD>-<HHMM>-<scenario>-<host>}, the date and time
 * the command started in UTC. The tool names each folder and never writes into one that exists: a second result of
 * the same scenario and host in the same minute gets {@code -2}, {@code -3}, ... after the name. A folder is a
 * result once it holds its metadata ({@link ResultInfo#FILE}); results are ordered by their {@code created} time,
 * then by folder name.
 */
public final class ResultFolders {
    /** The folder name's date and time: UTC, to the minute. */
    public static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")
        .withZone(ZoneOffset.UTC);
    /** How many folders of one name and minute are tried before giving up. */
    private static final int MAX_SUFFIX = 100;
    /** Oldest first. */
    private static final Comparator<Result> ORDER = Comparator.comparing((Result r) -> r.info().createdAt())
        .thenComparing(Result::name);

    private ResultFolders() {}

    /** A result: its folder and its metadata. */
    public record Result(Path folder, ResultInfo info) {
        /** The folder's name, which names the result. */
        public String name() {
            return folder.getFileName().toString();
        }
    }

    /** {@code <YYYY-MM-DD>-<HHMM>-<scenario>-<host>} for a command started {@code at}. */
    public static String name(final Instant at, final String scenario, final String host) {
        return STAMP.format(at) + "-" + scenario + "-" + host;
    }

    /** What writes a result's own files into its new folder; returns the files written. */
    @FunctionalInterface
    public interface FolderFiles {
        List<Path> write(Path folder) throws IOException;
    }

    /**
     * A new result of {@code kind} for {@code scenario} on {@code host}, started {@code at}: a new folder under
     * {@code root} with the files {@code files} writes, its metadata built from {@code report} and superseding the
     * newest earlier result of the same scenario and host, and the root's index rewritten if it has one. Prints
     * {@code wrote FILE} for each file on {@code out}.
     */
    public static void publish(final Path root, final ResultKind kind, final String scenario, final String host,
                               final Instant at, final Object report, final String why, final FolderFiles files,
                               final PrintStream out) throws IOException {
        final Path folder = create(root, kind, scenario, host, at);
        for (final Path p : files.write(folder)) {
            out.println("wrote " + p);
        }
        final String previous = previous(root, kind, scenario, host, at, folder).map(Result::name).orElse(null);
        out.println("wrote " + ResultInfo.of(kind, scenario, host, at, report, previous, why).write(folder));
        final Path index = ResultsIndex.refreshIfIndexed(root);
        if (index != null) {
            out.println("wrote " + index);
        }
    }

    /**
     * Creates the folder of a new result of {@code kind} under {@code root} (and the kind's folder if needed), named
     * for {@code at}, {@code scenario} and {@code host}; never one that exists.
     */
    public static Path create(final Path root, final ResultKind kind, final String scenario, final String host,
                              final Instant at) throws IOException {
        final Path parent = root.resolve(kind.dir());
        Files.createDirectories(parent);
        final String base = name(at, scenario, host);
        for (int i = 1; i <= MAX_SUFFIX; i++) {
            final Path folder = parent.resolve(i == 1 ? base : base + "-" + i);
            try {
                return Files.createDirectory(folder);
            } catch (final FileAlreadyExistsException e) {
                // Taken by an earlier result of the same minute: try the next suffix.
            }
        }
        throw new FileAlreadyExistsException(parent.resolve(base).toString(), null, MAX_SUFFIX
            + " results of this scenario and host in one minute");
    }

    /** Removes {@code folder} if it is empty (a result that wrote nothing); null or a folder with files stays. */
    public static void removeIfEmpty(final Path folder) throws IOException {
        if (folder == null) {
            return;
        }
        try (Stream<Path> s = Files.list(folder)) {
            if (s.findAny().isPresent()) {
                return;
            }
        }
        Files.delete(folder);
    }

    /** Every result of {@code kind} under {@code root}, oldest first; folders without metadata are skipped. */
    public static List<Result> list(final Path root, final ResultKind kind) throws IOException {
        final Path parent = root.resolve(kind.dir());
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        final List<Result> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(parent)) {
            for (final Path folder : s.filter(Files::isDirectory).sorted().toList()) {
                if (Files.isRegularFile(folder.resolve(ResultInfo.FILE))) {
                    out.add(new Result(folder, ResultInfo.read(folder)));
                }
            }
        }
        return out.stream().sorted(ORDER).toList();
    }

    /**
     * The previous result for a new one of {@code kind}, {@code scenario} and {@code host} started {@code at} in
     * {@code folder}: the newest of the same kind, scenario and host ordered before it (by created time, then name),
     * or empty.
     */
    public static Optional<Result> previous(final Path root, final ResultKind kind, final String scenario,
                                            final String host, final Instant at,
                                            final Path folder) throws IOException {
        final String self = folder.getFileName().toString();
        return list(root, kind).stream()
            .filter(r -> r.info().scenario().equals(scenario) && r.info().host().equals(host))
            .filter(r -> !r.name().equals(self))
            .filter(r -> r.info().createdAt().isBefore(at) || (r.info().createdAt().equals(at)
                && r.name().compareTo(self) < 0))
            .reduce((a, b) -> b);
    }
}
