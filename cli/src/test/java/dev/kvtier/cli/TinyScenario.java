package dev.kvtier.cli;

/** A scenario small enough for real-I/O tests: 64 KiB slots, 6 prompts of 16 blocks, cold then warm, L1 half. */
final class TinyScenario {
    private TinyScenario() {}

    /** A device profile about 100 times too slow for any disk: a simulation on it must fail a sign-off. */
    static final String WRONG_PROFILE = """
        name = "hundred-times-too-slow"
        readLatencyNs = 50000000
        writeLatencyNs = 50000000
        flushLatencyNs = 50000000
        readBytesPerSec = 10000000
        writeBytesPerSec = 10000000
        parallelism = 1
        """;

    /** The TOML text, named {@code name}, with {@code extra} tables appended. */
    static String text(final String name, final String extra) {
        return """
            [scenario]
            name = "%s"
            [model]
            name = "tiny"
            kvHeads = 1
            headDim = 64
            layers = 16
            blockTokens = 16
            dtypeBytes = 2
            [workload]
            prompts = 6
            inputTokens = 256
            concurrency = 2
            [engine]
            prefillNsPerToken = 0
            stepFixedNs = 0
            [[phase]]
            name = "cold"
            requests = 6
            [[phase]]
            name = "warm"
            requests = 6
            [core]
            l1Fraction = 0.5
            l2Fraction = 1.05
            stagingBatchBytes = 262144
            """.formatted(name) + extra;
    }
}
