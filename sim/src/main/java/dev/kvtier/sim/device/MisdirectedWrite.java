package dev.kvtier.sim.device;

/**
 * A write that completed OK but landed at {@code actualOffset} instead of {@code intendedOffset}: the intended range
 * kept its old content and the actual range (never overlapping the intended one) took the write's data.
 */
public record MisdirectedWrite(long ioId, long intendedOffset, long actualOffset, long lengthBytes) {
    public MisdirectedWrite {
        if (intendedOffset < 0 || actualOffset < 0 || lengthBytes <= 0) {
            throw new IllegalArgumentException("bad misdirect " + intendedOffset + " -> " + actualOffset + ", "
                + lengthBytes + " B");
        }
        if (Math.abs(intendedOffset - actualOffset) < lengthBytes) {
            throw new IllegalArgumentException("a misdirect never overlaps its intended range: " + intendedOffset
                + " -> " + actualOffset + ", " + lengthBytes + " B");
        }
    }

    public FileRange intended() {
        return new FileRange(intendedOffset, lengthBytes);
    }

    public FileRange actual() {
        return new FileRange(actualOffset, lengthBytes);
    }
}
