package dev.kvtier.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.run.ReportJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The committed {@code results/}: its index is the one the folders give and the tree holds only the layout ({@code
 * ./kvtier results index --check}), each result's headline and verdict are its report's, and every relative link in
 * its Markdown leads to a file that is there.
 */
class CommittedResultsTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void shouldHaveAnIndexThatIsUpToDateAndOnlyTheLayout() throws IOException {
        final Path root = results();
        assertEquals(List.of(), ResultsIndex.check(root), "run ./kvtier results index and commit results/README.md");
        assertTrue(ResultFolders.list(root, ResultKind.SIGNOFF).size() >= 1, "the committed sign-offs are found");
        assertTrue(ResultFolders.list(root, ResultKind.FIDELITY).size() >= 1, "the committed matrices are found");
    }

    @Test
    void shouldGiveEachResultTheHeadlineAndVerdictOfItsReport() throws IOException {
        final List<String> wrong = new ArrayList<>();
        for (final ResultKind kind : List.of(ResultKind.SIGNOFF, ResultKind.FIDELITY, ResultKind.SWEEP)) {
            for (final ResultFolders.Result r : ResultFolders.list(results(), kind)) {
                final String report = kind.main().replace(".md", ".json");
                final JsonNode tree = ReportJson.mapper().readTree(Files.readString(r.folder().resolve(report)));
                if (!r.info().headline().equals(Headlines.of(kind, tree))) {
                    wrong.add(r.name() + ": headline " + r.info().headline() + ", its report gives "
                        + Headlines.of(kind, tree));
                }
                final String verdict = kind == ResultKind.SWEEP ? null : Headlines.verdict(tree);
                if (verdict == null ? r.info().verdict() != null : !verdict.equals(r.info().verdict())) {
                    wrong.add(r.name() + ": verdict " + r.info().verdict() + ", its report says " + verdict);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void shouldLinkOnlyToFilesThatAreThere() throws IOException {
        final List<String> broken = new ArrayList<>();
        final List<Path> pages;
        try (Stream<Path> s = Files.walk(results())) {
            pages = s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        for (final Path page : pages) {
            final Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                final String target = m.group(1).replaceAll("#.*", "");
                if (!target.isEmpty() && !target.contains("://") && !Files.exists(page.resolveSibling(target))) {
                    broken.add(results().relativize(page) + " -> " + m.group(1));
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    /** The repository's {@code results/} (tests run in a module's directory). */
    private static Path results() {
        final Path here = Path.of("").toAbsolutePath();
        return (Files.isDirectory(here.resolve("results")) ? here : here.getParent()).resolve("results");
    }
}
