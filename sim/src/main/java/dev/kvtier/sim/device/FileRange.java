package dev.kvtier.sim.device;

/** A byte range of a device: {@code [offset, offset + lengthBytes)}. */
public record FileRange(long offset, long lengthBytes) {
    public FileRange {
        if (offset < 0 || lengthBytes <= 0) {
            throw new IllegalArgumentException("bad file range [" + offset + ", +" + lengthBytes + ")");
        }
    }

    /** One past the last byte. */
    public long end() {
        return offset + lengthBytes;
    }
}
