package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.l1.Admission;
import dev.kvtier.property.support.BudgetHook;
import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The admission arithmetic for any L1 size and ratio, against the formula of docs/design/STORAGE-CORE.md 3 computed
 * with unbounded integers: {@code H = min(l1, align4096(max(4096, ceil(l1 / ratio))))}, {@code saveTarget = l1 - H},
 * the trim target {@code max(stored, saveTarget)}.
 */
@AddLifecycleHook(BudgetHook.class)
class AdmissionProperties {
    private static final BigInteger PAGE = BigInteger.valueOf(4096);

    @Property(tries = 2000)
    void headroomAndSaveTargetFollowTheFormula(@ForAll @LongRange(min = 1, max = 1L << 50) final long l1Bytes,
                                               @ForAll @IntRange(min = 1, max = 1000) final int ratio,
                                               @ForAll @LongRange(min = 0, max = 1L << 50) final long stored) {
        final Admission a = Admission.of(l1Bytes, ratio);
        final BigInteger l1 = alignUp(BigInteger.valueOf(l1Bytes));
        final BigInteger ceil = l1.add(BigInteger.valueOf(ratio - 1)).divide(BigInteger.valueOf(ratio));
        final BigInteger h = l1.min(alignUp(ceil.max(PAGE)));
        assertEquals(l1.longValueExact(), a.l1Bytes(), "l1 is aligned up");
        assertEquals(h.longValueExact(), a.headroomBytes(), "H");
        assertEquals(a.l1Bytes(), a.saveTargetBytes() + a.headroomBytes(), "saveTarget + H = l1");
        assertEquals(0, a.headroomBytes() % 4096, "H is a multiple of 4096");
        assertTrue(a.headroomBytes() >= 4096, "H >= 4096");
        assertTrue(a.saveTargetBytes() >= 0, "saveTarget >= 0");
        assertEquals(Math.max(stored, a.saveTargetBytes()), a.trimTarget(stored), "trim target");
    }

    @Property(tries = 200)
    void referenceRatioReservesAboutFivePercent(@ForAll @LongRange(min = 1L << 20, max = 1L << 40) final long l1) {
        final Admission a = Admission.of(l1, 20);
        final long aligned = a.l1Bytes();
        assertTrue(a.headroomBytes() >= aligned / 20, "H >= l1 / 20");
        assertTrue(a.headroomBytes() < aligned / 20 + 2 * 4096, "H is l1 / 20 rounded up to a page");
    }

    private static BigInteger alignUp(final BigInteger bytes) {
        return bytes.add(PAGE.subtract(BigInteger.ONE)).divide(PAGE).multiply(PAGE);
    }
}
