package dev.kvtier.core.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AdmissionTest {
    private static final long P = 4096;

    @Test
    void shouldReserveOneBlockOfTwenty() {
        final Admission a = Admission.of(20 * P, 20);
        assertEquals(P, a.headroomBytes());
        assertEquals(19 * P, a.saveTargetBytes());
    }

    @Test
    void shouldReserveAtLeast4096() {
        final Admission a = Admission.of(5 * P, 20);
        assertEquals(P, a.headroomBytes());
        assertEquals(4 * P, a.saveTargetBytes());
    }

    @Test
    void shouldRoundHeadroomUpToAlignment() {
        final Admission a = Admission.of(1L << 30, 20);
        // ceil(2^30 / 20) = 53687092, aligned up to 53690368
        assertEquals(53_690_368L, a.headroomBytes());
        assertEquals((1L << 30) - 53_690_368L, a.saveTargetBytes());
    }

    @Test
    void shouldCapHeadroomAtL1() {
        final Admission a = Admission.of(P, 1);
        assertEquals(P, a.headroomBytes());
        assertEquals(0, a.saveTargetBytes());
    }

    @Test
    void shouldTrimToTheLargerOfStoredAndSaveTarget() {
        final Admission a = Admission.of(20 * P, 20);
        assertEquals(19 * P, a.trimTarget(P));
        assertEquals(20 * P, a.trimTarget(20 * P));
    }

    @Test
    void shouldRoundTheQuotientUpBeforeAligning() {
        // l1 / ratio = 8193 exactly: H = align4096(8193) = 12288; a floor one short (8191) would align to 8192.
        final Admission a = Admission.of(8193 * P, 4096);
        assertEquals(3 * P, a.headroomBytes());
        assertEquals(8190 * P, a.saveTargetBytes());
    }

    @Test
    void shouldRefuseANonPositiveSizeOrRatio() {
        assertThrows(IllegalArgumentException.class, () -> Admission.of(0, 20));
        assertThrows(IllegalArgumentException.class, () -> Admission.of(P, 0));
        assertEquals(P, Admission.of(1, 1).headroomBytes(), "one byte of L1 is one aligned block");
        assertThrows(IllegalArgumentException.class, () -> new Admission(2 * P, P, 2 * P));
    }
}
