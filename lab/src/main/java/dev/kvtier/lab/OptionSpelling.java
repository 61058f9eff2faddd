package dev.kvtier.lab;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How an enum constant is spelled on the command line and in reproduce lines: lower case, words joined by hyphens
 * ({@code DATA_FLUSH_IGNORED} is {@code data-flush-ignored}), and the parse back, whose error lists every choice.
 */
public final class OptionSpelling {
    private OptionSpelling() {}

    /** {@code constant}'s spelling. */
    public static String of(final Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The constant of {@code type} spelled {@code text}.
     *
     * @throws IllegalArgumentException naming {@code option} and every choice, e.g. {@code --plant must be none or
     *                                  wipe-index-log, got 'x'}
     */
    public static <E extends Enum<E>> E parse(final Class<E> type, final String option, final String text) {
        for (final E e : type.getEnumConstants()) {
            if (of(e).equals(text)) {
                return e;
            }
        }
        final List<String> all = Arrays.stream(type.getEnumConstants()).map(OptionSpelling::of).toList();
        final String choices = all.size() == 1 ? all.getFirst()
            : String.join(", ", all.subList(0, all.size() - 1)) + " or " + all.getLast();
        throw new IllegalArgumentException(option + " must be " + choices + ", got '" + text + "'");
    }
}
