package dev.kvtier.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FanOutSinkTest {

    /** The violating event reaches the sinks after the checker (a journal records it) before the run stops. */
    @Test
    void shouldHandTheViolatingEventToTheLaterSinksAndThenStop() {
        final List<CoreEvent> before = new ArrayList<>();
        final List<CoreEvent> after = new ArrayList<>();
        final CoreEvent bad = new CoreEvent.ShutdownRequested();
        final InvariantViolation v = new InvariantViolation(Invariant.LIVENESS, 2, "ShutdownRequested", "planted");
        final FanOutSink sink = new FanOutSink().add(before::add).add(e -> {
            if (e == bad) {
                throw v;
            }
        }).add(after::add);
        sink.emit(new CoreEvent.ShutdownCompleted(true));
        assertSame(v, assertThrows(InvariantViolation.class, () -> sink.emit(bad)));
        assertEquals(2, before.size());
        assertEquals(2, after.size(), "the sink after the checker saw the violating event");
        assertSame(bad, after.get(1));
    }

    @Test
    void shouldKeepALaterSinksViolationAsSuppressed() {
        final InvariantViolation first = new InvariantViolation(Invariant.CAPACITY, 1, "x", "first");
        final InvariantViolation second = new InvariantViolation(Invariant.RING, 1, "x", "second");
        final FanOutSink sink = new FanOutSink().add(e -> {
            throw first;
        }).add(e -> {
            throw second;
        });
        final InvariantViolation thrown = assertThrows(InvariantViolation.class,
            () -> sink.emit(new CoreEvent.ShutdownRequested()));
        assertSame(first, thrown);
        assertSame(second, thrown.getSuppressed()[0]);
    }
}
