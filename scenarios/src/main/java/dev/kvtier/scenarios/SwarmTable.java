package dev.kvtier.scenarios;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * {@code [swarm]}: {@code "table.key" = [values...]}, what {@code kvtier explore} draws per seed, each value a TOML
 * scalar as {@code --set} would take it. Every value is checked when the scenario loads ({@link #check}), as the
 * scenario with that one value drawn, so a bad value is one line before any seed runs, whichever seed would draw it
 * ({@link SwarmCheck} says how the command's {@code --set}s count).
 */
final class SwarmTable {
    /** A swarm key: a table's key as --set takes it, or a phase's. */
    private static final Pattern KEY = Pattern.compile(
        "(core|workload|engine|sim|host|faults)\\.[A-Za-z][A-Za-z0-9]*|phase\\.\\d+\\.[A-Za-z][A-Za-z0-9]*");
    /** The tables a swarm key may name (besides {@code phase.N}). */
    private static final List<String> TABLES = List.of("core", "workload", "engine", "sim", "host", "faults");

    private SwarmTable() {}

    /** The scenario with {@code sets} (the user's, then one draw) applied: throws what the loader finds wrong. */
    @FunctionalInterface
    interface Variant {
        void load(List<String> sets) throws ScenarioException;
    }

    /** The table {@code node} ({@code null} when absent): its keys' forms and its values' types. */
    static SortedMap<String, List<String>> read(final String source, final JsonNode node) throws ScenarioException {
        final SortedMap<String, List<String>> out = new TreeMap<>();
        if (node == null) {
            return out;
        }
        if (!node.isObject()) {
            throw new ScenarioException(source + ": key 'swarm' must be a table");
        }
        for (final Map.Entry<String, JsonNode> e : node.properties()) {
            final String key = e.getKey();
            if (!KEY.matcher(key).matches()) {
                final int dot = key.indexOf('.');
                throw new ScenarioException(source + ": key 'swarm.\"" + key
                    + "\"' must name a core, workload, engine, sim, host, faults or phase.N key" + (dot < 0 ? ""
                        : DidYouMean.hint(key.substring(0, dot), TABLES, t -> t + key.substring(dot))));
            }
            if (!e.getValue().isArray() || e.getValue().isEmpty()) {
                throw new ScenarioException(source + ": key 'swarm.\"" + key + "\"' must be a non-empty array");
            }
            final List<String> values = new ArrayList<>();
            for (final JsonNode v : e.getValue()) {
                if (!v.isValueNode()) {
                    throw new ScenarioException(source + ": key 'swarm.\"" + key + "\"' holds a non-scalar");
                }
                values.add(v.asString());
            }
            out.put(key, values);
        }
        return out;
    }

    /**
     * Loads {@code variant} with {@code sets} and one value of one key, for every value of every key (a value listed
     * twice once): the first that fails (as {@code check} says, {@link SwarmCheck}) is refused with the loader's
     * message, naming it {@code swarm."KEY"[i]}.
     */
    static void check(final String source, final SortedMap<String, List<String>> swarm, final List<String> sets,
                      final SwarmCheck check, final Variant variant) throws ScenarioException {
        for (final Map.Entry<String, List<String>> e : swarm.entrySet()) {
            final Set<String> checked = new HashSet<>();
            for (int i = 0; i < e.getValue().size(); i++) {
                final String value = e.getValue().get(i);
                if (!checked.add(value)) {
                    continue;
                }
                final String draw = e.getKey() + "=" + value;
                final List<String> drawn = new ArrayList<>(sets);
                drawn.add(draw);
                try {
                    variant.load(drawn);
                } catch (final ScenarioException x) {
                    if (check == SwarmCheck.FILE && !sets.isEmpty() && loads(variant, List.of(draw))) {
                        continue; // only the command's --sets break it, and this command draws nothing
                    }
                    throw new ScenarioException(named(source, e.getKey(), i, value, x.getMessage()));
                }
            }
        }
    }

    private static boolean loads(final Variant variant, final List<String> sets) {
        try {
            variant.load(sets);
            return true;
        } catch (final ScenarioException e) {
            return false;
        }
    }

    /**
     * The loader's message about the scenario with {@code key=value} drawn, said of the swarm's value instead: its
     * own key's problem as {@code key 'swarm."KEY"[i]' PROBLEM} (an unknown key without the index), another as
     * {@code key 'swarm."KEY"[i]' = VALUE: PROBLEM}.
     */
    static String named(final String source, final String key, final int i, final String value, final String message) {
        String rest = message.startsWith(source + ": ") ? message.substring(source.length() + 2) : message;
        final String set = "--set '" + key + "=" + value + "': ";
        rest = rest.startsWith(set) ? rest.substring(set.length()) : rest;
        final String own = "key '" + key + "' ";
        final String swarmKey = "key 'swarm.\"" + key + "\"";
        if (rest.startsWith(own + "is not a known key")) {
            return source + ": " + swarmKey + "' " + rest.substring(own.length());
        }
        if (rest.startsWith(own)) {
            return source + ": " + swarmKey + "[" + i + "]' " + rest.substring(own.length());
        }
        return source + ": " + swarmKey + "[" + i + "]' = " + value + ": " + rest;
    }
}
