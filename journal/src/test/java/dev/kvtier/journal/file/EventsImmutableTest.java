package dev.kvtier.journal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.PrefixKey;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The journal writer encodes events on its own thread, later than they were emitted ({@link EventPipe}): that is only
 * the same as encoding them at emit while an event cannot change after it was made. Every {@link CoreEvent} is a
 * record whose components are primitives, strings, enums, records of the same, or lists of the same; and the lists
 * are copies (a list the emitter changes afterwards does not change the event).
 */
class EventsImmutableTest {

    @Test
    void shouldMakeEveryEventOfValuesThatCannotChange() {
        final List<String> problems = new ArrayList<>();
        int records = 0;
        for (final Class<?> type : CoreEvent.class.getPermittedSubclasses()) {
            for (final Class<?> leaf : leaves(type)) {
                records++;
                check(leaf, leaf.getSimpleName(), problems);
            }
        }
        assertTrue(records > 40, "every event record was visited: " + records);
        assertEquals(List.of(), problems);
    }

    @Test
    void shouldCopyAListGivenToAnEvent() {
        final List<PrefixKey> keys = new ArrayList<>();
        keys.add(new PrefixKey(1, 2));
        final CoreEvent.Lookup lookup = new CoreEvent.Lookup(0, keys, 1);
        keys.add(new PrefixKey(3, 4));
        assertEquals(1, lookup.keys().size(), "the event keeps what it was given");
    }

    private static List<Class<?>> leaves(final Class<?> type) {
        if (!type.isSealed()) {
            return List.of(type);
        }
        final List<Class<?>> out = new ArrayList<>();
        for (final Class<?> sub : type.getPermittedSubclasses()) {
            out.addAll(leaves(sub));
        }
        return out;
    }

    private static void check(final Class<?> record, final String path, final List<String> problems) {
        if (!record.isRecord()) {
            problems.add(path + ": " + record.getName() + " is not a record");
            return;
        }
        for (final RecordComponent c : record.getRecordComponents()) {
            checkType(c.getGenericType(), path + "." + c.getName(), problems);
        }
    }

    private static void checkType(final Type type, final String path, final List<String> problems) {
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            checkType(p.getActualTypeArguments()[0], path + "[]", problems);
            return;
        }
        if (!(type instanceof Class<?> c)) {
            problems.add(path + ": " + type + " is not a plain type");
            return;
        }
        if (c.isPrimitive() || c == String.class || c.isEnum() || c == Integer.class || c == Long.class) {
            return;
        }
        if (c.isRecord()) {
            check(c, path, problems);
            return;
        }
        problems.add(path + ": " + c.getName() + " may change after the event was made");
    }
}
