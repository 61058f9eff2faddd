package dev.kvtier.scenarios;

/** The smallest scenario the loader accepts, which the loader's tests extend with the tables they test. */
final class MinimalScenario {
    static final String TEXT = """
        [scenario]
        name = "t"
        [model]
        name = "m"
        [workload]
        prompts = 4
        inputTokens = 64
        [[phase]]
        name = "cold"
        requests = 4
        """;

    private MinimalScenario() {}
}
