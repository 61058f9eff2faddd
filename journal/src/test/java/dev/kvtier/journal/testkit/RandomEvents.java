package dev.kvtier.journal.testkit;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random instances of any {@link CoreEvent} record, built by reflection over its components (tests only), with a
 * bias to edge values (0, -1, MIN, MAX). A record added to core gets random instances without changes here.
 */
public final class RandomEvents {
    private static final String[] TEXTS = {"", "warm", "cold", "\u00e9t\u00e9 \u2603", "x".repeat(300)};

    private final SplittableRandom random;

    /** A generator seeded with {@code seed}. */
    public RandomEvents(final long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A random instance of {@code type}. */
    public CoreEvent of(final Class<?> type) {
        final RecordComponent[] components = type.getRecordComponents();
        final Class<?>[] types = new Class<?>[components.length];
        final Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            args[i] = value(components[i].getGenericType());
        }
        try {
            return (CoreEvent) type.getDeclaredConstructor(types).newInstance(args);
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
        }
    }

    /** A random instance of a random record. */
    public CoreEvent any() {
        final List<Class<?>> types = recordTypes();
        return of(types.get(random.nextInt(types.size())));
    }

    /** Every record type of {@link CoreEvent}: the records of each kind (input, decision, note), in order. */
    public static List<Class<?>> recordTypes() {
        final List<Class<?>> out = new ArrayList<>();
        for (final Class<?> kind : CoreEvent.class.getPermittedSubclasses()) {
            out.addAll(List.of(kind.getPermittedSubclasses()));
        }
        return out;
    }

    private Object value(final Type type) {
        if (type instanceof ParameterizedType list) {
            final Type element = list.getActualTypeArguments()[0];
            final int count = random.nextInt(4);
            final List<Object> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(value(element));
            }
            return out;
        }
        final Class<?> cls = (Class<?>) type;
        if (cls == int.class || cls == Integer.class) {
            return anyInt();
        }
        if (cls == long.class) {
            return anyLong();
        }
        if (cls == boolean.class) {
            return random.nextBoolean();
        }
        if (cls == String.class) {
            return TEXTS[random.nextInt(TEXTS.length)];
        }
        if (cls.isEnum()) {
            final Object[] constants = cls.getEnumConstants();
            return constants[random.nextInt(constants.length)];
        }
        return valueRecord(cls);
    }

    private Object valueRecord(final Class<?> cls) {
        if (cls == PrefixKey.class) {
            return new PrefixKey(random.nextLong(), random.nextLong());
        }
        if (cls == AllocationRef.class) {
            return ref();
        }
        if (cls == StoreSpec.class) {
            final AllocationRef alloc = ref();
            final List<Integer> blocks = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(alloc.slotCount()); i++) {
                blocks.add(anyInt());
            }
            return new StoreSpec(alloc, blocks, anyLong());
        }
        if (cls == LoadRange.class) {
            return new LoadRange(ref(), nonNegative(), 1 + nonNegative() / 2, nonNegative());
        }
        if (cls == SpanPiece.class) {
            return new SpanPiece(ref(), nonNegative(), nonNegative(), 1 + nonNegative() / 2);
        }
        throw new IllegalStateException("no generator for " + cls.getName() + ": add one");
    }

    private AllocationRef ref() {
        return new AllocationRef(new PrefixKey(random.nextLong(), random.nextLong()), anyLong(),
            random.nextInt(1 << 20), 1 + random.nextInt(8));
    }

    private int anyInt() {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> -1;
            case 2 -> Integer.MIN_VALUE;
            case 3 -> Integer.MAX_VALUE;
            case 4 -> random.nextInt(1000);
            default -> random.nextInt();
        };
    }

    private long anyLong() {
        return switch (random.nextInt(6)) {
            case 0 -> 0L;
            case 1 -> -1L;
            case 2 -> Long.MIN_VALUE;
            case 3 -> Long.MAX_VALUE;
            case 4 -> random.nextLong(1 << 30);
            default -> random.nextLong();
        };
    }

    private long nonNegative() {
        return random.nextBoolean() ? random.nextLong(1L << 40) : Long.MAX_VALUE / 4;
    }
}
