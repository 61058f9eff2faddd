package dev.kvtier.property.support;

import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Applies the {@link Budget} to every property of a container ({@code @AddLifecycleHook(BudgetHook.class)}): the
 * declared tries are scaled for deep or quick runs (quick runs are also seeded), and the budget summary is printed
 * after each property.
 */
public final class BudgetHook implements AroundPropertyHook {
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context,
                                                  final PropertyExecutor property) {
        final PropertyAttributes attributes = context.attributes();
        final int declared = attributes.tries().orElse(1000);
        attributes.setTries(Budget.tries(declared));
        if (Budget.quick()) {
            // Mutation testing: every mutant must meet the same chains, and a failure under one mutant must not
            // change what the next one is tried with.
            attributes.setSeed(Budget.quickSeed());
            attributes.setAfterFailure(AfterFailureMode.RANDOM_SEED);
        }
        final PropertyExecutionResult result = property.execute();
        System.out.println(context.label() + ": " + result.countTries() + " tries; " + Budget.summary());
        return result;
    }
}
