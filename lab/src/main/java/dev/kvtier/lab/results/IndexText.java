package dev.kvtier.lab.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The index's Markdown: its introduction, one scenario and host's results, a folder's files. */
final class IndexText {
    static final String INTRO = """
        Results measured on a particular machine, one folder per kind. Each result is a folder the tool names \
        `<YYYY-MM-DD>-<HHMM>-<scenario>-<host>` (when the command started, in UTC; `-2`, `-3` ... after a name \
        taken in the same minute), holding fixed file names and `result.json`: kind, scenario, host, created, \
        verdict, headline figures, conditions, the result it supersedes (the previous one of the same kind, \
        scenario and host) and why it was made. The current result of a scenario and host is the newest.

        `./kvtier signoff`, `fidelity`, `calibrate` and `sweep` write here with `--results results` and rewrite \
        this index; `./kvtier results index` rewrites it, and `./kvtier results index --check` (run by the test \
        suite) fails when it is out of date. See [docs/commands/results.md](../docs/commands/results.md).
        """;

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
        .withZone(ZoneOffset.UTC);

    private IndexText() {}

    /** One scenario and host: the current result in full, then the superseded ones, newest first. */
    static void group(final StringBuilder b, final ResultKind kind, final List<ResultFolders.Result> oldestFirst) {
        final ResultFolders.Result current = oldestFirst.getLast();
        final ResultInfo c = current.info();
        b.append("\n### ").append(c.scenario()).append(" on ").append(c.host()).append("\n\n");
        b.append("Current: **").append(link(kind, current)).append("**, ")
            .append(c.verdict() == null ? "" : c.verdict() + ", ").append("created ")
            .append(WHEN.format(c.createdAt())).append(".\n");
        if (!c.headline().isEmpty()) {
            b.append("\n| figure | value |\n|---|---|\n");
            for (final Map.Entry<String, String> e : c.headline().entrySet()) {
                b.append("| ").append(cell(e.getKey())).append(" | ").append(cell(e.getValue())).append(" |\n");
            }
        }
        b.append('\n');
        line(b, "Why", c.why());
        line(b, "Conditions", c.conditions());
        line(b, "Supersedes", c.supersedes());
        if (oldestFirst.size() == 1) {
            return;
        }
        b.append("\nSuperseded, newest first:\n\n| result | verdict | superseded by | why |\n|---|---|---|---|\n");
        for (int i = oldestFirst.size() - 2; i >= 0; i--) {
            final ResultFolders.Result r = oldestFirst.get(i);
            final List<ResultFolders.Result> by = oldestFirst.stream().filter(n -> r.name().equals(n.info()
                .supersedes())).toList();
            final String byNames;
            final String why;
            if (by.isEmpty()) {
                byNames = oldestFirst.get(i + 1).name() + " (newer; it names no predecessor)";
                why = "-";
            } else {
                byNames = String.join(", ", by.stream().map(ResultFolders.Result::name).toList());
                why = String.join("; ", by.stream().map(n -> n.info().why() == null ? "-" : n.info().why())
                    .toList());
            }
            b.append("| ").append(link(kind, r)).append(" | ").append(r.info().verdict() == null ? "-"
                : r.info().verdict()).append(" | ").append(byNames).append(" | ").append(cell(why)).append(" |\n");
        }
    }

    /** A folder's files, one link each, under a heading; nothing when the folder is absent or empty. */
    static void files(final StringBuilder b, final Path root, final String dir, final String title,
                      final String about) throws IOException {
        final Path folder = root.resolve(dir);
        if (!Files.isDirectory(folder)) {
            return;
        }
        final List<String> names;
        try (Stream<Path> s = Files.list(folder)) {
            names = s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
        if (names.isEmpty()) {
            return;
        }
        b.append("\n## ").append(title).append(" (`").append(dir).append("/`)\n\n").append(about).append("\n\n");
        for (final String n : names) {
            b.append("- [").append(n).append("](").append(dir).append('/').append(n).append(")\n");
        }
    }

    private static String link(final ResultKind kind, final ResultFolders.Result r) {
        return "[" + r.name() + "](" + kind.dir() + "/" + r.name() + "/" + kind.main() + ")";
    }

    private static void line(final StringBuilder b, final String label, final String text) {
        if (text != null && !text.isBlank()) {
            b.append("- ").append(label).append(": ").append(text.strip().replace('\n', ' ')).append('\n');
        }
    }

    /** Text fit for one table cell: one line, no bare pipe. */
    private static String cell(final String text) {
        return text.strip().replace('\n', ' ').replace("|", "\\|");
    }
}
