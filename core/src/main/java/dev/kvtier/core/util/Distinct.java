package dev.kvtier.core.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The distinct elements of a list in the order of their first occurrence, as {@code new LinkedHashSet<>(list)} gives
 * them, without building a set when no two elements share a hash code (the usual case: a save's specs are distinct):
 * one int array of their hash codes, sorted, tells. Equal elements share a hash code, so a list whose hash codes all
 * differ has no duplicates; one where two hash codes are equal goes through the set. Either way the result is the
 * same, whatever the hash codes are.
 */
public final class Distinct {
    private Distinct() {}

    /** {@code list} itself when its elements are distinct, else a new list of its distinct ones in first order. */
    public static <T> List<T> inOrder(final List<T> list) {
        return mayRepeat(list) ? new ArrayList<>(new LinkedHashSet<>(list)) : list;
    }

    /** True when two elements of {@code list} are equal. */
    public static boolean hasDuplicates(final List<?> list) {
        return mayRepeat(list) && new LinkedHashSet<>(list).size() != list.size();
    }

    /** False when no two elements share a hash code (so none is equal to another); true otherwise. */
    private static boolean mayRepeat(final List<?> list) {
        final int n = list.size();
        if (n < 2) {
            return false;
        }
        final int[] hashes = new int[n];
        int at = 0;
        for (final Object o : list) {
            hashes[at++] = Objects.hashCode(o);
        }
        Arrays.sort(hashes);
        for (int i = 1; i < n; i++) {
            if (hashes[i] == hashes[i - 1]) {
                return true;
            }
        }
        return false;
    }
}
