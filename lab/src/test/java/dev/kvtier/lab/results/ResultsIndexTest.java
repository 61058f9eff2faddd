package dev.kvtier.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated index: the current result per kind, scenario and host, the superseded ones, and its check. */
class ResultsIndexTest {
    @Test
    void shouldListTheNewestAsCurrentAndTheOthersWithWhatSupersededThem(@TempDir final Path root) throws IOException {
        tree(root);
        final String index = ResultsIndex.render(root);
        assertTrue(index.startsWith(ResultsIndex.FIRST_LINE + "\n"), "the first line says it is generated");
        final String group = section(index, "### s on h\n", "### s on h2\n");
        assertTrue(group.contains("Current: **[2026-12-03-0900-s-h](signoffs/2026-12-03-0900-s-h/signoff.md)**, PASS,"
            + " created 2026-12-03 09:00 UTC."), group);
        assertTrue(group.contains("| store bandwidth real / simulated | 1.61 / 1.63 GB/s |"), group);
        assertTrue(group.contains("- Why: re-run on a quiet machine\n"), group);
        assertTrue(group.contains("- Supersedes: 2026-12-02-0800-s-h\n"), group);
        final String newer = "| [2026-12-02-0800-s-h](signoffs/2026-12-02-0800-s-h/signoff.md) | FAIL | "
            + "2026-12-03-0900-s-h | re-run on a quiet machine |";
        final String older = "| [2026-12-01-0700-s-h](signoffs/2026-12-01-0700-s-h/signoff.md) | FAIL | "
            + "2026-12-02-0800-s-h | the model \\| changed |";
        assertTrue(group.contains(newer) && group.contains(older), group);
        assertTrue(group.indexOf(newer) < group.indexOf(older), "newest first");
        final String other = section(index, "### s on h2\n", "## Fidelity");
        assertTrue(other.contains("Current: **[2026-12-02-1000-s-h2]"), other);
        assertTrue(!other.contains("Superseded"), "one result, nothing superseded: " + other);
        assertTrue(index.contains("## Fidelity matrices (`fidelity/`)\n\n### fidelity on h\n\nCurrent: **["
            + "2026-12-02-0900-fidelity-h](fidelity/2026-12-02-0900-fidelity-h/fidelity.md)**"), index);
        assertTrue(index.contains("- [2026-12-01-notes.md](notes/2026-12-01-notes.md)\n"), index);
        assertTrue(index.contains("- [s.json](baselines/s.json)\n"), index);
    }

    @Test
    void shouldTellWhenTheIndexIsStaleOrTheTreeHoldsWhatTheLayoutDoesNot(@TempDir final Path root) throws IOException {
        tree(root);
        assertEquals(List.of("README.md is missing: run ./kvtier results index --dir " + root),
            ResultsIndex.check(root));
        ResultsIndex.write(root);
        assertEquals(List.of(), ResultsIndex.check(root));
        result(root, "s", "h", "2026-12-04T09:00:00Z", "PASS", "2026-12-03-0900-s-h", "again");
        assertEquals(List.of("README.md is out of date with the result folders: run ./kvtier results index --dir "
            + root), ResultsIndex.check(root), "a new result the index does not list");
        ResultsIndex.write(root);
        Files.writeString(root.resolve("2026-12-05-s-h.json"), "{}");
        Files.createDirectories(root.resolve("signoffs/2026-12-05-0000-s-h"));
        Files.writeString(root.resolve("signoffs/2026-12-03-0900-s-h/signoff-wrong-disk.md"), "renamed by hand\n");
        result(root, "s", "h3", "2026-12-05T09:00:00Z", "PASS", "2026-12-01-0000-s-h3", null);
        ResultsIndex.write(root);
        assertEquals(List.of("2026-12-05-s-h.json: not part of the layout (README.md and [baselines, calibrations, "
            + "fidelity, notes, plans, signoffs, sweeps])",
            "signoffs/2026-12-03-0900-s-h/signoff-wrong-disk.md: not one of a "
                + "signoff's files [device.toml, fidelity.png, host.toml, latency.png, signoff.json, signoff.md, "
                + "throughput.png]",
            "signoffs/2026-12-05-0000-s-h: not a result folder (no "
                + "result.json)",
            "signoffs/2026-12-05-0900-s-h3: supersedes 2026-12-01-0000-s-h3, which is not in "
                + "signoffs/"),
            ResultsIndex.check(root));
    }

    @Test
    void shouldRewriteOnlyAnIndexTheToolWrote(@TempDir final Path root) throws IOException {
        tree(root);
        assertNull(ResultsIndex.refreshIfIndexed(root), "no index: none is made");
        Files.writeString(root.resolve("README.md"), "# Our results\n");
        assertNull(ResultsIndex.refreshIfIndexed(root), "one written by hand is left alone");
        assertEquals("# Our results\n", Files.readString(root.resolve("README.md")));
        ResultsIndex.write(root);
        result(root, "s", "h", "2026-12-04T09:00:00Z", "PASS", "2026-12-03-0900-s-h", "again");
        assertEquals(root.resolve("README.md"), ResultsIndex.refreshIfIndexed(root));
        assertEquals(List.of(), ResultsIndex.check(root));
    }

    /** Three sign-offs of s on h, one on h2, a matrix, a note and a baseline. */
    private static void tree(final Path root) throws IOException {
        result(root, "s", "h", "2026-12-01T07:00:00Z", "FAIL", null, "the first");
        result(root, "s", "h", "2026-12-02T08:00:00Z", "FAIL", "2026-12-01-0700-s-h", "the model | changed");
        result(root, "s", "h", "2026-12-03T09:00:00Z", "PASS", "2026-12-02-0800-s-h", "re-run on a quiet machine");
        result(root, "s", "h2", "2026-12-02T10:00:00Z", "PASS", null, null);
        final Instant at = Instant.parse("2026-12-02T09:00:00Z");
        new ResultInfo("fidelity", "fidelity", "h", at.toString(), "PASS", Map.of("phase time MAPE / mean signed",
            "3.5 % / -2.9 %"), null, null, null).write(ResultFolders.create(root, ResultKind.FIDELITY, "fidelity", "h",
                at));
        Files.createDirectories(root.resolve("notes"));
        Files.writeString(root.resolve("notes/2026-12-01-notes.md"), "# notes\n");
        Files.createDirectories(root.resolve("baselines"));
        Files.writeString(root.resolve("baselines/s.json"), "{}\n");
    }

    private static void result(final Path root, final String scenario, final String host, final String created,
                               final String verdict, final String supersedes, final String why) throws IOException {
        final Map<String, String> headline = new LinkedHashMap<>();
        headline.put("store bandwidth real / simulated", "1.61 / 1.63 GB/s");
        headline.put("phase cold time", "-4.9 %");
        new ResultInfo("signoff", scenario, host, created, verdict, headline, "code abc", supersedes, why)
            .write(ResultFolders.create(root, ResultKind.SIGNOFF, scenario, host, Instant.parse(created)));
    }

    private static String section(final String text, final String from, final String to) {
        final int start = text.indexOf(from);
        assertTrue(start >= 0, from + " in " + text);
        final int end = text.indexOf(to, start + from.length());
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }
}
