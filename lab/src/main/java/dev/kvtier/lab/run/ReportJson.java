package dev.kvtier.lab.run;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.harness.run.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Writes run reports as JSON (Jackson; records serialize by component name). */
public final class ReportJson {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ReportJson() {}

    public static String toJson(final Object value) {
        return JSON.writeValueAsString(value);
    }

    public static void write(final Path file, final RunReport report) throws IOException {
        write(file, report, Map.of());
    }

    /** Writes {@code report} with {@code extraMetrics} added to its {@code metrics} object (in their order). */
    public static void write(final Path file, final RunReport report,
                             final Map<String, Object> extraMetrics) throws IOException {
        final ObjectNode tree = JSON.valueToTree(report);
        final ObjectNode metrics = (ObjectNode) tree.get("metrics");
        extraMetrics.forEach((k, v) -> metrics.set(k, JSON.valueToTree(v)));
        OutputFile.writeString(file, toJson(tree) + "\n");
    }

    public static JsonMapper mapper() {
        return JSON;
    }
}
