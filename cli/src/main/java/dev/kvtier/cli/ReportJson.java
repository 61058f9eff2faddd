package dev.kvtier.cli;

import dev.kvtier.sim.run.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Writes run reports as JSON (Jackson; records serialize by component name). */
public final class ReportJson {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ReportJson() {
    }

    public static String toJson(final Object value) {
        return JSON.writeValueAsString(value);
    }

    public static void write(final Path file, final RunReport report) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, toJson(report) + "\n");
    }

    public static JsonMapper mapper() {
        return JSON;
    }
}
