package dev.kvtier.lab.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A result's headline figures and conditions, read from its JSON report (so that a result the tool writes now and
 * one it wrote before the metadata file existed get the same figures from the same code). A sign-off: store
 * bandwidth real and simulated, and each phase time's and TTFT mean's deviation (simulated median over real median,
 * minus 1; a report from before repeated runs has one run of each and its phases' fidelity). A matrix: per kind of
 * figure the MAPE and the mean signed error, and the per-slot / contiguous cold-TTFT ratio. A sweep: its metric, the
 * ratio at the first and last point, and whether it rises monotonically.
 */
public final class Headlines {
    private Headlines() {}

    /** The headline of a report of {@code kind} ({@link ResultKind#CALIBRATION} has none). */
    public static Map<String, String> of(final ResultKind kind, final JsonNode report) {
        return switch (kind) {
            case SIGNOFF -> signoff(report);
            case FIDELITY -> fidelity(report);
            case SWEEP -> sweep(report);
            case PLAN -> plan(report);
            case CALIBRATION -> Map.of();
        };
    }

    /** A sign-off report's verdict, or a matrix's: {@code PASS} or {@code FAIL}. */
    public static String verdict(final JsonNode report) {
        return ResultInfo.verdict(report.path("pass").asBoolean(false));
    }

    /**
     * What a sign-off or a matrix ran on: the code ({@code code}, when known), the device, the seed and repetitions
     * and the profiles the simulation used.
     */
    public static String conditions(final JsonNode report, final String code) {
        final List<String> parts = new ArrayList<>();
        if (code != null) {
            parts.add("code " + code);
        }
        parts.add("device " + report.path("device").asString(""));
        final String repeats = report.has("repeats") ? ", " + report.path("repeats").asInt() + " repetition(s)" : "";
        parts.add("seed " + report.path("seed").asLong() + repeats);
        parts.add("device profile " + report.path("deviceProfile").path("name").asString("?") + ", host profile "
            + report.path("hostProfile").path("name").asString("?"));
        final JsonNode c = report.has("judged") ? report.path("judged").path("conditions")
            : report.path("conditions");
        if (c.isObject()) {
            parts.add(String.format(Locale.ROOT, "CPUs %s of %d online, disk write cache \"%s\", other load %.2f CPUs, "
                + "steal %.1f %%", c.path("affinity").asString("?"), c.path("cpusOnline").asInt(),
                c.path("writeCache").asString("?"), c.path("otherCpus").asDouble(),
                100 * c.path("stealShare").asDouble()));
        }
        return String.join("; ", parts);
    }

    static Map<String, String> signoff(final JsonNode r) {
        final Map<String, String> out = new LinkedHashMap<>();
        out.put("store bandwidth real / simulated", String.format(Locale.ROOT, "%.2f / %.2f GB/s",
            r.path("storeBytesPerSec").asDouble() / 1e9, r.path("simStoreBytesPerSec").asDouble() / 1e9));
        if (r.has("figures")) {
            for (final JsonNode f : r.path("figures")) {
                final String name = f.path("name").asString("");
                if (name.startsWith("phase ") || (name.startsWith("TTFT ") && name.endsWith(" mean"))) {
                    out.put(name, deviation(median(f.path("sim")), median(f.path("real"))));
                }
            }
            return out;
        }
        for (final JsonNode p : r.path("phases")) {
            final String name = p.path("name").asString("");
            out.put("phase " + name + " time", deviation(p.path("simNanos").asDouble(), p.path("realNanos")
                .asDouble()));
        }
        final JsonNode real = r.path("real").path("metrics").path("ttftNanos");
        final JsonNode sim = r.path("sim").path("metrics").path("ttftNanos");
        for (final String phase : real.propertyNames()) {
            out.put("TTFT " + phase + " mean", deviation(sim.path(phase).path("mean").asDouble(), real.path(phase)
                .path("mean").asDouble()));
        }
        return out;
    }

    static Map<String, String> fidelity(final JsonNode r) {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final JsonNode e : r.path("errors")) {
            out.put(e.path("kind").asString("") + " MAPE / mean signed",
                String.format(Locale.ROOT, "%.1f %% / %+.1f %%",
                    100 * e.path("mape").asDouble(), 100 * e.path("meanSigned").asDouble()));
        }
        final JsonNode reg = r.path("regression");
        if (reg.isObject()) {
            out.put("per-slot / contiguous cold TTFT real / simulated", String.format(Locale.ROOT, "%.3f / %.3f",
                reg.path("real").asDouble(), reg.path("sim").asDouble()));
        }
        return out;
    }

    static Map<String, String> plan(final JsonNode r) {
        final Map<String, String> out = new LinkedHashMap<>();
        final JsonNode rows = r.path("rows");
        out.put("cells", rows.size() + " (" + r.path("l1").size() + " L1 x " + r.path("l2").size() + " L2 x "
            + r.path("admissions").size() + " policies)");
        if (!r.path("idealHitRatio").isNull() && !r.path("idealHitRatio").isMissingNode()) {
            out.put("ideal hit ratio", String.format(Locale.ROOT, "%.1f %%", 100 * r.path("idealHitRatio").asDouble()));
        }
        double best = 0;
        double wearLo = Double.MAX_VALUE;
        double wearHi = 0;
        for (final JsonNode row : rows) {
            best = Math.max(best, row.path("fromL1").asDouble() + row.path("fromL2").asDouble());
            wearLo = Math.min(wearLo, row.path("driveWritesPerDay").asDouble());
            wearHi = Math.max(wearHi, row.path("driveWritesPerDay").asDouble());
        }
        if (!rows.isEmpty()) {
            out.put("best hit ratio", String.format(Locale.ROOT, "%.1f %%", 100 * best));
            out.put("drive writes a day", String.format(Locale.ROOT, "%.2f .. %.2f", wearLo, wearHi));
        }
        return out;
    }

    static Map<String, String> sweep(final JsonNode r) {
        final Map<String, String> out = new LinkedHashMap<>();
        out.put("metric", r.path("candidate").asString("") + " / " + r.path("baseline").asString("") + ", "
            + r.path("metric").asString(""));
        final JsonNode points = r.path("points");
        boolean monotone = true;
        for (int i = 1; i < points.size(); i++) {
            monotone &= points.get(i).path("ratio").asDouble() >= points.get(i - 1).path("ratio").asDouble();
        }
        if (!points.isEmpty()) {
            out.put("ratio at the first / last point", String.format(Locale.ROOT, "%.3f / %.3f", points.get(0)
                .path("ratio").asDouble(), points.get(points.size() - 1).path("ratio").asDouble()));
        }
        out.put("ratio rises monotonically", monotone ? "yes" : "no");
        return out;
    }

    private static String deviation(final double sim, final double real) {
        return real == 0 ? "not judged" : String.format(Locale.ROOT, "%+.1f %%", 100 * (sim / real - 1));
    }

    /** The median of a JSON array of numbers (the mean of the two middle values of an even count). */
    private static double median(final JsonNode values) {
        final List<Double> v = new ArrayList<>();
        values.forEach(n -> v.add(n.asDouble()));
        v.sort(null);
        final int n = v.size();
        if (n == 0) {
            return 0;
        }
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
