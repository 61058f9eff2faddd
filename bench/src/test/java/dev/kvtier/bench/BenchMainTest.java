package dev.kvtier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchMainTest {

    @Test
    void shouldNameEachBenchmarkAndParametersWhoseRunFailedInJmhLog() {
        final List<String> log = List.of(
            "# Benchmark: dev.kvtier.bench.CodecBench.decode",
            "# Parameters: (stream = pr90-evict)",
            "# Warmup Iteration   1: <failure>",
            "java.lang.IllegalArgumentException: capacityMax -1982172872 < 256",
            "# Benchmark: dev.kvtier.bench.DirectoryBench.lookupPrompt",
            "# Warmup Iteration   1: 27.3 ns/op",
            "# Benchmark: dev.kvtier.bench.DigestBench.sha256",
            "# Warmup Iteration   1: <failure>",
            "# Warmup Iteration   2: <failure>");
        assertEquals(List.of("CodecBench.decode (stream = pr90-evict)", "DigestBench.sha256"),
            BenchMain.failures(log));
    }

    @Test
    void shouldFindNoFailureInLogOfPassingRuns() {
        assertEquals(List.of(), BenchMain.failures(List.of("# Benchmark: dev.kvtier.bench.EventLoopBench.x",
            "# Parameters: (n = 1)", "Iteration   1: 77.9 ns/op")));
    }
}
