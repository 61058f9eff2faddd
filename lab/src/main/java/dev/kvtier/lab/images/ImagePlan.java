package dev.kvtier.lab.images;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Which disk images to build from a {@link Timeline}, at most {@code budget} of them, in two kinds:
 *
 * <ul>
 *   <li><b>prefix</b>: at every flush point (just before the loop saw a flush complete, and just after) and at the
 *       run's end, the durable state plus the writes in flight applied whole in submission order, each prefix of them
 *       from none to all. When there are more of these than half the budget, that many are taken evenly spaced
 *       over the run (no randomness);</li>
 *   <li><b>subset</b>: the rest of the budget, each at a cut drawn uniformly over the run (redrawn up to 8 times
 *       while nothing is in flight there), with each write in flight kept with probability 1/2 (at least one), and a
 *       kept write of several pages torn with probability 1/2: each of its 4 KiB pages kept with probability 1/2.
 *       Drawn from {@code seed}.</li>
 * </ul>
 *
 * <p>Images are numbered in cut order, so the checker builds each cut's durable state once, going forward.
 */
final class ImagePlan {
    /**
     * A write in flight applied to an image.
     *
     * @param write the write
     * @param pages the pages of it that landed (bit i: its i-th page), or null when all did
     */
    record Applied(Timeline.Write write, BitSet pages) {
        boolean torn() {
            return pages != null;
        }
    }

    /**
     * One image: the durable state at {@code cut} with {@code applied} on top.
     *
     * @param number   its number in the plan
     * @param cut      the cut ({@link Timeline})
     * @param prefix   a prefix image (else a seeded subset)
     * @param inFlight writes in flight at the cut
     * @param applied  the writes in flight applied, in submission order
     */
    record Image(int number, int cut, boolean prefix, int inFlight, List<Applied> applied) {
        Image {
            applied = List.copyOf(applied);
        }

        /** One line: where, and what was applied. */
        String describe(final Timeline t) {
            final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "image %d: cut %d of %d (event %d), "
                + "%s, %d of %d writes in flight applied", number, cut, t.cuts(), t.eventsAt(cut),
                prefix ? "prefix" : "subset", applied.size(), inFlight));
            for (int i = 0; i < applied.size() && i < 12; i++) {
                final Applied a = applied.get(i);
                b.append(i == 0 ? ": " : ", ").append(a.write().role().name().toLowerCase(Locale.ROOT)).append(" w")
                    .append(a.write().number()).append(" @page ").append(a.write().firstPage());
                b.append(a.torn() ? " pages " + a.pages() + " of " + a.write().pages() : " whole");
            }
            return b.append(applied.size() > 12 ? ", ..." : "").toString();
        }
    }

    private final List<Image> images;
    private final long prefixPossible;

    private ImagePlan(final List<Image> images, final long prefixPossible) {
        this.images = List.copyOf(images);
        this.prefixPossible = prefixPossible;
    }

    /** At most {@code budget} images of {@code t}, drawn from {@code seed}. */
    static ImagePlan of(final Timeline t, final int budget, final long seed) {
        if (budget < 1) {
            throw new IllegalArgumentException("an image plan needs a budget of at least 1, got " + budget);
        }
        final TreeSet<Integer> cuts = new TreeSet<>();
        for (final int p : t.flushPoints()) {
            cuts.add(p);
            cuts.add(p + 1);
        }
        cuts.add(t.cuts());
        final List<Integer> cutList = new ArrayList<>(cuts);
        final long[] counts = new long[cutList.size()];
        long possible = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = t.inFlight(cutList.get(i)).size() + 1L;
            possible += counts[i];
        }
        final int prefixes = (int) Math.min(possible, Math.max(1, budget / 2));
        final List<Image> out = new ArrayList<>(budget);
        int at = 0;
        long before = 0;
        List<Timeline.Write> inFlight = null;
        for (int j = 0; j < prefixes; j++) {
            final long idx = possible == prefixes ? j : (long) ((double) j * possible / prefixes);
            boolean moved = inFlight == null;
            while (idx >= before + counts[at]) {
                before += counts[at++];
                moved = true;
            }
            if (moved) {
                inFlight = t.inFlight(cutList.get(at));
            }
            final int k = (int) (idx - before);
            final List<Applied> applied = new ArrayList<>();
            for (int w = 0; w < k; w++) {
                applied.add(new Applied(inFlight.get(w), null));
            }
            out.add(new Image(0, cutList.get(at), true, inFlight.size(), applied));
        }
        final SplittableRandom random = new SplittableRandom(seed);
        while (out.size() < budget) {
            out.add(subset(t, random));
        }
        out.sort(Comparator.comparingInt(Image::cut).thenComparing(i -> !i.prefix()));
        final List<Image> numbered = new ArrayList<>(out.size());
        for (final Image i : out) {
            numbered.add(new Image(numbered.size(), i.cut(), i.prefix(), i.inFlight(), i.applied()));
        }
        return new ImagePlan(numbered, possible);
    }

    private static Image subset(final Timeline t, final SplittableRandom random) {
        int cut = 0;
        List<Timeline.Write> inFlight = List.of();
        for (int tries = 0; tries < 8 && inFlight.isEmpty(); tries++) {
            cut = 1 + random.nextInt(t.cuts());
            inFlight = t.inFlight(cut);
        }
        final List<Applied> applied = new ArrayList<>();
        final int forced = inFlight.isEmpty() ? -1 : random.nextInt(inFlight.size());
        for (int w = 0; w < inFlight.size(); w++) {
            final boolean kept = random.nextBoolean();
            if (!kept && w != forced) {
                continue;
            }
            final Timeline.Write write = inFlight.get(w);
            BitSet pages = null;
            if (write.pages() > 1 && random.nextBoolean()) {
                pages = new BitSet(write.pages());
                for (int p = 0; p < write.pages(); p++) {
                    pages.set(p, random.nextBoolean());
                }
            }
            applied.add(new Applied(write, pages));
        }
        return new Image(0, cut, false, inFlight.size(), applied);
    }

    /** The images, in cut order. */
    List<Image> images() {
        return images;
    }

    /** Prefix images the flush points allow (the plan took all of them, or evenly spaced ones). */
    long prefixPossible() {
        return prefixPossible;
    }

    /** Prefix images planned. */
    long prefixes() {
        return images.stream().filter(Image::prefix).count();
    }

    /**
     * Images that differ from every other one in the plan: in the writes durable at their cut, the acknowledgements
     * before it, or the pages applied on top (a small run has few states, and the seeded subsets repeat some).
     */
    long distinct(final Timeline t) {
        final Set<String> seen = new HashSet<>();
        for (final Image i : images) {
            final StringBuilder key = new StringBuilder().append(t.eventsAt(i.cut())).append(':')
                .append(t.durableWrites(i.cut()));
            for (final Applied a : i.applied()) {
                key.append(':').append(a.write().number()).append(a.torn() ? a.pages().toString() : "");
            }
            seen.add(key.toString());
        }
        return seen.size();
    }

    /** Kept writes torn (some of their pages landed, not all). */
    long tornWrites() {
        return images.stream().flatMap(i -> i.applied().stream())
            .filter(a -> a.torn() && a.pages().cardinality() > 0 && a.pages().cardinality() < a.write().pages())
            .count();
    }
}
