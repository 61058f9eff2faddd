package dev.kvtier.lab.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.IoLog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ImagePlan}: every flush point's prefixes when the budget allows, the seeded subsets drawn the same way from
 * the same seed and only from writes in flight at their cut, torn pages within the write, and images in cut order.
 */
class ImagePlanTest {
    /** Four data writes of 4 pages, a flush after the first two completed, then two more. */
    private static Timeline timeline() {
        final List<IoLog.Entry> e = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            e.add(new IoLog.Entry(IoLog.Kind.SUBMIT, DeviceRole.DATA, w, IoOp.WRITE, w * 16384L, 16384, w * 4, 0,
                e.size()));
            e.add(new IoLog.Entry(IoLog.Kind.COMPLETE, DeviceRole.DATA, w, IoOp.WRITE, 0, 0, -1, 16384, e.size()));
        }
        e.add(new IoLog.Entry(IoLog.Kind.SUBMIT, DeviceRole.DATA, 9, IoOp.FLUSH, 0, 0, -1, 0, e.size()));
        for (int w = 2; w < 4; w++) {
            e.add(new IoLog.Entry(IoLog.Kind.SUBMIT, DeviceRole.DATA, w, IoOp.WRITE, w * 16384L, 16384, w * 4, 0,
                e.size()));
        }
        e.add(new IoLog.Entry(IoLog.Kind.COMPLETE, DeviceRole.DATA, 9, IoOp.FLUSH, 0, 0, -1, 0, e.size()));
        return Timeline.of(e, e.size(), PlantedFault.NONE);
    }

    @Test
    void shouldTakeEveryPrefixOfEveryFlushPointWhenTheBudgetAllows() {
        final Timeline t = timeline();
        final ImagePlan plan = ImagePlan.of(t, 100, 1);
        // Cuts 7 (4 in flight: 5 prefixes) and 8 = the end (2 in flight: 3 prefixes).
        assertEquals(8, plan.prefixPossible());
        assertEquals(8, plan.prefixes());
        assertEquals(100, plan.images().size());
        for (int i = 0; i < plan.images().size(); i++) {
            assertEquals(i, plan.images().get(i).number());
            assertTrue(i == 0 || plan.images().get(i - 1).cut() <= plan.images().get(i).cut(), "in cut order");
        }
    }

    @Test
    void shouldDrawSubsetsOnlyFromTheWritesInFlightAndTearWithinThem() {
        final Timeline t = timeline();
        final ImagePlan plan = ImagePlan.of(t, 400, 7);
        assertTrue(plan.tornWrites() > 0, "some kept write is torn");
        for (final ImagePlan.Image i : plan.images()) {
            final List<Timeline.Write> inFlight = t.inFlight(i.cut());
            assertEquals(inFlight.size(), i.inFlight());
            for (final ImagePlan.Applied a : i.applied()) {
                assertTrue(inFlight.contains(a.write()), "image " + i.number() + " applies a write not in flight");
                assertTrue(a.pages() == null || a.pages().length() <= a.write().pages(), "torn within the write");
            }
            if (!i.prefix()) {
                assertTrue(!i.applied().isEmpty() || inFlight.isEmpty(), "a subset keeps at least one write");
            }
        }
    }

    @Test
    void shouldDrawTheSamePlanFromTheSameSeed() {
        final Timeline t = timeline();
        final List<String> a = ImagePlan.of(t, 300, 5).images().stream().map(i -> i.describe(t)).toList();
        final List<String> b = ImagePlan.of(t, 300, 5).images().stream().map(i -> i.describe(t)).toList();
        final List<String> c = ImagePlan.of(t, 300, 6).images().stream().map(i -> i.describe(t)).toList();
        assertEquals(a, b);
        assertTrue(!a.equals(c), "another seed draws other subsets");
    }

    @Test
    void shouldSpreadThePrefixImagesWhenThereAreMoreThanHalfTheBudget() {
        final Timeline t = timeline();
        final ImagePlan plan = ImagePlan.of(t, 6, 1);
        assertEquals(3, plan.prefixes(), "half the budget");
        assertEquals(6, plan.images().size());
    }
}
