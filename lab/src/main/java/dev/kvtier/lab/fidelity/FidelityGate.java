package dev.kvtier.lab.fidelity;

import dev.kvtier.lab.signoff.Fidelity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A regression gate for fidelity, in the style of the anchors: a matrix compared with the previous one on the same
 * host, on the figures both predicted (same entry label, same figure, judged in both). A kind of figure whose MAPE
 * over those figures rose by at least {@link #POINTS} and by at least {@link #RELATIVE} of the previous MAPE is
 * flagged: the model got worse on cases it had already been measured on.
 */
public final class FidelityGate {
    /** A rise of at least this many points of MAPE ... */
    public static final double POINTS = 0.02;
    /** ... and at least this much of the previous MAPE, relative. */
    public static final double RELATIVE = 0.10;
    private static final JsonMapper JSON = new JsonMapper();

    private FidelityGate() {}

    /**
     * One kind compared.
     *
     * @param kind     the kind of figure
     * @param figures  figures both matrices judged
     * @param before   the previous matrix's MAPE over them
     * @param now      this matrix's MAPE over them
     * @param flagged  whether it rose by at least both limits
     */
    public record Kind(String kind, int figures, double before, double now, boolean flagged) {
        /** For example {@code phase time: MAPE 3.1 % -> 6.0 % on 8 figures both predicted (flagged)}. */
        public String describe() {
            return String.format(Locale.ROOT, "%s: MAPE %.1f %% -> %.1f %% on %d figure(s) both predicted%s", kind,
                100 * before, 100 * now, figures, flagged ? " -- rose by at least 2 points and 10 %" : "");
        }
    }

    /** This matrix's entries against the previous matrix's {@code fidelity.json}. */
    public static List<Kind> compare(final Path previousJson, final List<Matrix.Entry> now) throws IOException {
        final JsonNode prev = JSON.readTree(Files.readString(previousJson));
        final Map<String, Double> before = new HashMap<>();
        for (final JsonNode e : prev.path("entries")) {
            final String label = e.path("heldOut").path("label").asString("");
            for (final JsonNode f : e.path("figures")) {
                final double real = median(f.path("real"));
                final double sim = median(f.path("sim"));
                if (real != 0 && !Double.isNaN(real) && !Double.isNaN(sim)) {
                    before.put(label + "\u0000" + f.path("name").asString(""), sim / real - 1);
                }
            }
        }
        final List<Kind> out = new ArrayList<>();
        for (final String kind : List.of("phase time", "TTFT mean", "TTFT p99", "bandwidth")) {
            double a = 0;
            double b = 0;
            int n = 0;
            for (final Matrix.Entry e : now) {
                for (final Fidelity.Figure f : e.figures()) {
                    final Double old = before.get(e.heldOut().label() + "\u0000" + f.name());
                    if (old != null && f.judged() && kind.equals(Matrix.kind(f))) {
                        n++;
                        a += Math.abs(old);
                        b += Math.abs(f.deviation());
                    }
                }
            }
            if (n > 0) {
                final double was = a / n;
                final double is = b / n;
                out.add(new Kind(kind, n, was, is, is - was >= POINTS && is >= was * (1 + RELATIVE)));
            }
        }
        return out;
    }

    private static double median(final JsonNode values) {
        final List<Double> v = new ArrayList<>();
        values.forEach(x -> v.add(x.asDouble()));
        if (v.isEmpty()) {
            return Double.NaN;
        }
        return Fidelity.median(v);
    }
}
