package dev.kvtier.scenarios;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One table of a scenario file, read with typed getters that name the source, the full key and the problem in
 * every error, and that remember which keys were read so unknown keys (typos) are reported rather than ignored.
 */
final class Section {
    private final String source;
    private final String path;
    private final JsonNode node;
    private final Set<String> used = new LinkedHashSet<>();

    Section(final String source, final String path, final JsonNode node) throws ScenarioException {
        this.source = source;
        this.path = path;
        if (node != null && !node.isObject()) {
            throw new ScenarioException(source + ": '" + path + "' must be a table");
        }
        this.node = node;
    }

    boolean present() {
        return node != null;
    }

    boolean has(final String key) {
        return node != null && node.has(key);
    }

    String string(final String key, final String fallback) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isString()) {
            throw fail(key, "must be a string, got " + v);
        }
        return v.stringValue();
    }

    /** A list of strings (an absent key gives an empty list). */
    List<String> strings(final String key) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw fail(key, "must be a list of strings, got " + v);
        }
        final List<String> out = new ArrayList<>();
        for (final JsonNode item : v) {
            if (!item.isString()) {
                throw fail(key, "must be a list of strings, got the item " + item);
            }
            out.add(item.stringValue());
        }
        return out;
    }

    String requiredString(final String key) throws ScenarioException {
        final String s = string(key, null);
        if (s == null || s.isBlank()) {
            throw fail(key, "is required");
        }
        return s;
    }

    long longValue(final String key, final long fallback, final long min, final long max) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isIntegralNumber()) {
            throw fail(key, "must be a whole number, got " + v);
        }
        if (!v.canConvertToLong()) {
            throw fail(key, "must be in [" + min + ", " + max + "], got " + v + " (more than 64 bits)");
        }
        final long x = v.longValue();
        if (x < min || x > max) {
            throw fail(key, "must be in [" + min + ", " + max + "], got " + x);
        }
        return x;
    }

    /**
     * A size in bytes: a whole number, or a string of a number and a unit ({@code "64GiB"}, {@code "2.25MiB"},
     * {@code "1.5 GB"}; {@link Sizes}) that comes to whole bytes; checked against {@code [min, max]}.
     */
    long bytesValue(final String key, final long fallback, final long min, final long max) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null || !v.isString()) {
            return longValue(key, fallback, min, max);
        }
        final long x;
        try {
            x = Sizes.parse(v.stringValue());
        } catch (final IllegalArgumentException e) {
            throw fail(key, e.getMessage());
        }
        if (x < min || x > max) {
            throw fail(key, "must be in [" + min + ", " + max + "] bytes, got " + v.stringValue() + " (" + x + " B)");
        }
        return x;
    }

    int intValue(final String key, final int fallback, final int min, final int max) throws ScenarioException {
        return (int) longValue(key, fallback, min, max);
    }

    long requiredLong(final String key, final long min, final long max) throws ScenarioException {
        if (get(key) == null) {
            throw fail(key, "is required");
        }
        return longValue(key, 0, min, max);
    }

    double fraction(final String key, final double fallback) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isNumber()) {
            throw fail(key, "must be a number, got " + v);
        }
        final double x;
        try {
            x = v.doubleValue();
        } catch (final JacksonException e) {
            // a decimal beyond the range of a double (1e400)
            throw fail(key, "must be a positive number of at most 1000, got " + v);
        }
        if (!(x > 0) || x > 1000) {
            throw fail(key, "must be a positive number of at most 1000, got " + x);
        }
        return x;
    }

    boolean bool(final String key, final boolean fallback) throws ScenarioException {
        final JsonNode v = get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw fail(key, "must be true or false, got " + v);
        }
        return v.booleanValue();
    }

    /**
     * An enum knob, spelled in TOML as its constant's name in lower case with '-' for '_' ({@code "prefix-lru"} for
     * {@code PREFIX_LRU}, {@code "durable"} for {@code DURABLE}); {@code fallback} when the key is absent.
     */
    <E extends Enum<E>> E choice(final String key, final E fallback) throws ScenarioException {
        final String given = string(key, tomlName(fallback));
        final List<String> names = new ArrayList<>();
        for (final E constant : fallback.getDeclaringClass().getEnumConstants()) {
            if (tomlName(constant).equals(given)) {
                return constant;
            }
            names.add('"' + tomlName(constant) + '"');
        }
        throw fail(key, "must be " + String.join(" or ", names));
    }

    /** Throws if the table has a key no getter asked for, naming the known keys close to it (a typo). */
    void rejectUnknown() throws ScenarioException {
        if (node == null) {
            return;
        }
        final Set<String> unknown = new TreeSet<>(node.propertyNames());
        unknown.removeAll(used);
        if (!unknown.isEmpty()) {
            final String key = unknown.iterator().next();
            throw fail(key, "is not a known key" + DidYouMean.hint(key, used, k -> path + "." + k) + " (known: "
                + String.join(", ", used) + ")");
        }
    }

    ScenarioException fail(final String key, final String problem) {
        return new ScenarioException(source + ": key '" + path + "." + key + "' " + problem);
    }

    private static String tomlName(final Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private JsonNode get(final String key) {
        used.add(key);
        if (node == null) {
            return null;
        }
        final JsonNode v = node.get(key);
        return v == null || v.isNull() ? null : v;
    }
}
