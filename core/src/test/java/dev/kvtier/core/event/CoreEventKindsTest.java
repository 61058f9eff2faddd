package dev.kvtier.core.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every record has exactly one kind, and the kinds are the ones replay has always used: the compiler makes a record
 * pick a kind, this test keeps a record from picking two and pins which records are inputs and notes.
 */
class CoreEventKindsTest {

    @Test
    void shouldSplitCoreEventIntoExactlyTheThreeKinds() {
        assertEquals(Set.of(CoreEvent.Input.class, CoreEvent.Decision.class, CoreEvent.Note.class),
            Set.of(CoreEvent.class.getPermittedSubclasses()));
    }

    @Test
    void shouldGiveEveryRecordExactlyOneKind() {
        final Set<String> inputs = names(CoreEvent.Input.class);
        final Set<String> decisions = names(CoreEvent.Decision.class);
        final Set<String> notes = names(CoreEvent.Note.class);
        final Set<String> all = new TreeSet<>();
        all.addAll(inputs);
        all.addAll(decisions);
        all.addAll(notes);
        assertEquals(inputs.size() + decisions.size() + notes.size(), all.size(), "a record with two kinds");
        assertEquals(58, all.size());
        assertEquals(42, decisions.size());
        for (final Class<?> kind : CoreEvent.class.getPermittedSubclasses()) {
            for (final Class<?> record : kind.getPermittedSubclasses()) {
                assertTrue(record.isRecord(), record + " is not a record");
            }
        }
    }

    @Test
    void shouldKeepTheInputsAndNotesReplayHasAlwaysUsed() {
        assertEquals(new TreeSet<>(List.of("AllocateRequested", "ClaimReleased", "Delivered", "DrainRequested",
            "IndexIoCompleted",
            "IndexOpenRequested", "IoCompleted", "LoadRequested", "Lookup", "SaveQueued", "ShutdownRequested")),
            names(CoreEvent.Input.class));
        assertEquals(new TreeSet<>(List.of("LoadWaited", "PhaseStarted", "RequestArrived", "RequestFinished",
            "StepCompleted")),
            names(CoreEvent.Note.class));
    }

    private static Set<String> names(final Class<?> kind) {
        final Set<String> out = new TreeSet<>();
        Arrays.stream(kind.getPermittedSubclasses()).map(Class::getSimpleName).forEach(out::add);
        return out;
    }
}
