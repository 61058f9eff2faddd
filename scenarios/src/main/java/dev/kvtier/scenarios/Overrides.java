package dev.kvtier.scenarios;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code --set key=value} overrides on the parsed TOML tree, before validation: {@code core.l1Fraction=0.5},
 * {@code workload.prompts=20}, {@code phase.1.requests=10}. The value is read as a TOML scalar: true/false, a whole
 * number, a decimal, or else a string (quotes optional). The key must name an existing table (or phase).
 */
final class Overrides {
    private Overrides() {}

    /** Keys of {@code [core]} that say one size two ways: setting one drops the other. */
    private static final Map<String, String> EITHER_OR = Map.of("l1Bytes", "l1Fraction", "l1Fraction", "l1Bytes",
        "l2Bytes", "l2Fraction", "l2Fraction", "l2Bytes");

    static void apply(final String source, final ObjectNode root, final List<String> sets) throws ScenarioException {
        for (final String set : sets) {
            final int eq = set.indexOf('=');
            if (eq <= 0 || set.substring(0, eq).isBlank()) {
                throw new ScenarioException("--set '" + set + "': expected key=value");
            }
            final String key = set.substring(0, eq).trim();
            final String value = set.substring(eq + 1).trim();
            final String[] parts = key.split("\\.");
            final ObjectNode table = table(source, root, parts, set);
            final String leaf = parts[parts.length - 1];
            // A size given one way replaces the same size given the other way (core.l1Bytes replaces l1Fraction).
            if (parts.length == 2 && parts[0].equals("core") && EITHER_OR.containsKey(leaf)) {
                table.remove(EITHER_OR.get(leaf));
            }
            if (value.equals("true") || value.equals("false")) {
                table.put(leaf, Boolean.parseBoolean(value));
            } else if (value.matches("-?\\d+")) {
                table.put(leaf, wholeNumber(set, value));
            } else if (value.matches("-?\\d*\\.\\d+([eE]-?\\d+)?|-?\\d+[eE]-?\\d+")) {
                table.put(leaf, Double.parseDouble(value));
            } else {
                table.put(leaf, value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                    ? value.substring(1, value.length() - 1) : value);
            }
        }
    }

    private static ObjectNode table(final String source, final ObjectNode root, final String[] parts,
                                    final String set) throws ScenarioException {
        if (parts.length == 3 && parts[0].equals("phase")) {
            final JsonNode phases = root.get("phase");
            final int i = index(parts[1], set);
            if (!(phases instanceof ArrayNode a) || i < 0 || i >= a.size() || !(a.get(i) instanceof ObjectNode o)) {
                throw new ScenarioException("--set '" + set + "': " + source + " has no phase " + parts[1]);
            }
            return o;
        }
        if (parts.length != 2) {
            throw new ScenarioException("--set '" + set + "': key must be table.key or phase.N.key");
        }
        final JsonNode t = root.get(parts[0]);
        if (t == null) {
            return root.putObject(parts[0]);
        }
        if (!(t instanceof ObjectNode o)) {
            throw new ScenarioException("--set '" + set + "': '" + parts[0] + "' is not a table");
        }
        return o;
    }

    private static long wholeNumber(final String set, final String value) throws ScenarioException {
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw new ScenarioException("--set '" + set + "': " + value + " does not fit in a 64-bit whole number");
        }
    }

    private static int index(final String s, final String set) throws ScenarioException {
        try {
            return Integer.parseInt(s);
        } catch (final NumberFormatException e) {
            throw new ScenarioException("--set '" + set + "': phase index must be a number, got '" + s + "'");
        }
    }
}
