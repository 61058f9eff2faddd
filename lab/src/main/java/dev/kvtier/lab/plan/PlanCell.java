package dev.kvtier.lab.plan;

import dev.kvtier.core.config.L2Admission;
import dev.kvtier.lab.OptionSpelling;

/** One cell of a plan's grid: real L1 and L2 sizes and an admission policy. */
public record PlanCell(long l1Bytes, long l2Bytes, L2Admission admission) {
    /** The policy as a scenario names it ({@code all}, {@code second-sight}). */
    public String admissionName() {
        return OptionSpelling.of(admission);
    }
}
