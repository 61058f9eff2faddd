package dev.kvtier.harness.workload;

/**
 * One workload phase: {@code requests} requests over the prompt set, taken in order (prompt i mod prompts) or by
 * Zipf popularity with exponent {@code zipfExponent} (drawn from the workload's seeded stream).
 *
 * @param name         phase name ("cold", "warm", ...); reports use it
 * @param requests     requests in the phase
 * @param order        how prompts are picked
 * @param zipfExponent Zipf exponent s (P(rank k) proportional to 1 / k^s), used with {@code ZIPF}
 */
public record PhaseSpec(String name, int requests, Order order, double zipfExponent) {
    /** How a phase picks prompts. */
    public enum Order {
        SEQUENTIAL,
        ZIPF
    }

    public PhaseSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a phase needs a name");
        }
        if (requests <= 0) {
            throw new IllegalArgumentException("phase " + name + " needs requests > 0, got " + requests);
        }
        if (order == null) {
            throw new IllegalArgumentException("phase " + name + " needs an order");
        }
        if (order == Order.ZIPF && !(zipfExponent > 0)) {
            throw new IllegalArgumentException("phase " + name + " needs zipfExponent > 0, got " + zipfExponent);
        }
    }
}
