package dev.kvtier.scenarios;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes with units, as a scenario and {@code --set} take them: a number and one of B, KiB, MiB, GiB, TiB (powers of
 * 1024) or kB, MB, GB, TB (powers of 1000), with or without a space, in any case but the {@code i}: {@code 64GiB},
 * {@code 2.25MiB}, {@code 1.5 GB}. The value must come to a whole number of bytes, exactly (decimal arithmetic).
 */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)");
    private static final Map<String, Long> UNITS = Map.of("b", 1L, "kib", 1L << 10, "mib", 1L << 20, "gib", 1L << 30,
        "tib", 1L << 40, "kb", 1_000L, "mb", 1_000_000L, "gb", 1_000_000_000L, "tb", 1_000_000_000_000L);

    private Sizes() {}

    /** The bytes {@code text} says; the message names what is wrong. */
    public static long parse(final String text) {
        final Matcher m = SIZE.matcher(text.strip());
        final Long unit = m.matches() ? UNITS.get(m.group(2).isEmpty() ? "b" : m.group(2).toLowerCase(Locale.ROOT))
            : null;
        if (unit == null) {
            throw new IllegalArgumentException("must be a size: bytes, or a number with a unit (B, KiB, MiB, GiB, "
                + "TiB, kB, MB, GB, TB), got \"" + text + "\"");
        }
        final BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        try {
            return bytes.longValueExact();
        } catch (final ArithmeticException e) {
            throw new IllegalArgumentException("must come to a whole number of bytes below 2^63, got \"" + text
                + "\" (" + bytes.toPlainString() + " B)", e);
        }
    }
}
