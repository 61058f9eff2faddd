package dev.kvtier.scenarios;

import java.util.Map;

/**
 * {@code [signoff]}: the sign-off's thresholds (minimum store bandwidth, largest drop from the previous result) and
 * its fidelity bands (each a fraction either side of the real median, default {@link Scenario.Signoff#BAND}).
 */
final class SignoffSection {
    private SignoffSection() {}

    /** Reads the table (the defaults when it is absent) and records its knob line in {@code knobs}. */
    static Scenario.Signoff read(final Section s, final Map<String, String> knobs) throws ScenarioException {
        if (!s.present()) {
            return Scenario.Signoff.DEFAULT;
        }
        final long minBw = s.longValue("minStoreBytesPerSec", Scenario.Signoff.DEFAULT.minStoreBytesPerSec(), 0,
            Long.MAX_VALUE);
        final double maxDrop = s.fraction("maxDrop", Scenario.Signoff.DEFAULT.maxDrop());
        final double phase = s.fraction("phaseBand", Scenario.Signoff.BAND);
        final double ttftMean = s.fraction("ttftMeanBand", Scenario.Signoff.BAND);
        final double ttftP99 = s.fraction("ttftP99Band", Scenario.Signoff.BAND);
        final double bandwidth = s.fraction("bandwidthBand", Scenario.Signoff.BAND);
        s.rejectUnknown();
        if (maxDrop >= 1) {
            throw s.fail("maxDrop", "must be below 1 (a fraction of the previous result), got " + maxDrop);
        }
        knobs.put("signoff", "minStoreBytesPerSec=" + minBw + ":maxDrop=" + maxDrop + bands(phase, ttftMean,
            ttftP99, bandwidth));
        return new Scenario.Signoff(minBw, maxDrop, phase, ttftMean, ttftP99, bandwidth);
    }

    /** The bands that differ from the default, for the knob line (empty when none does). */
    private static String bands(final double phase, final double ttftMean, final double ttftP99,
                                final double bandwidth) {
        final StringBuilder b = new StringBuilder();
        final double d = Scenario.Signoff.BAND;
        b.append(phase == d ? "" : ":phaseBand=" + phase).append(ttftMean == d ? "" : ":ttftMeanBand=" + ttftMean)
            .append(ttftP99 == d ? "" : ":ttftP99Band=" + ttftP99)
            .append(bandwidth == d ? "" : ":bandwidthBand=" + bandwidth);
        return b.toString();
    }
}
