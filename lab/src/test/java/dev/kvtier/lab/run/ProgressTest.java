package dev.kvtier.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A long run's progress in a log (not a terminal): nothing during the first {@link Progress#QUIET_NS}, then a line
 * naming the run, the requests finished of the total, the phase and the events, then one line every
 * {@link Progress#LINE_EVERY_NS}. The test drives the clock itself.
 */
class ProgressTest {
    private final long[] nowNs = {1_000};
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, 40,
        "virtual run", () -> nowNs[0]);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** One look at the clock's worth of events, {@code finished} of them finishing a request. */
    private void events(final int finished) {
        for (int i = 0; i < Progress.CHECK_EVERY; i++) {
            progress.emit(
                i < finished ? new CoreEvent.RequestFinished(i, "cold", 1, true) : new CoreEvent.DrainRequested());
        }
    }

    @Test
    void shouldStayQuietForAShortRunThenPrintALineEveryInterval() {
        progress.emit(new CoreEvent.PhaseStarted("cold"));
        events(3);
        nowNs[0] += Progress.QUIET_NS - 1;
        events(2);
        assertEquals("", printed(), "nothing before the quiet time has passed");

        nowNs[0] += 1;
        events(2);
        final String first = printed();
        assertEquals(1, first.lines().count(), first);
        assertTrue(first.startsWith("progress: virtual run, 7 of 40 requests finished, phase cold, "), first);

        nowNs[0] += Progress.LINE_EVERY_NS - 1;
        events(0);
        assertEquals(first, printed(), "no second line within the interval");

        nowNs[0] += 1;
        progress.emit(new CoreEvent.PhaseStarted("warm"));
        events(1);
        final String all = printed();
        assertEquals(2, all.lines().count(), all);
        assertTrue(all.lines().skip(1).findFirst().orElseThrow()
            .startsWith("progress: virtual run, 8 of 40 requests finished, phase warm, "), all);
        progress.close();
    }
}
