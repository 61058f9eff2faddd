package dev.kvtier.lab.images;

import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.CompletionSink;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One device of a crash image, in memory: each 4 KiB page reads as what recovery itself wrote to it since the image
 * was built, else the in-flight write applied to it in this image ({@code overlay}), else the durable state, else
 * zeros. I/O moves its bytes when submitted and completes at the next {@link #poll}, in submission order; a FLUSH does
 * nothing (nothing after the image is cut again). The core's recovery runs over two of these exactly as over the
 * real devices. Confined to the checking thread; the maps are for point look-ups by page.
 */
final class ImageDevice implements PolledDevice {
    private static final int MAX_REQUESTS = 4096;
    private static final int PAGE = PageStore.PAGE_BYTES;

    private final DeviceRole role;
    private final DurableState durable;
    private final Map<Long, Integer> overlay;
    private final PageStore pages;
    private final NativeMemory memory;
    private final Map<Long, byte[]> written = new HashMap<>();
    private final ArrayDeque<long[]> ready = new ArrayDeque<>();

    ImageDevice(final DeviceRole role, final DurableState durable, final Map<Long, Integer> overlay,
                final PageStore pages, final NativeMemory memory) {
        this.role = role;
        this.durable = durable;
        this.overlay = overlay;
        this.pages = pages;
        this.memory = memory;
    }

    @Override
    public String kind() {
        return "image";
    }

    @Override
    public long capacityBytes() {
        return (long) durable.pages(role) * PAGE;
    }

    @Override
    public int depth() {
        return MAX_REQUESTS;
    }

    @Override
    public int maxRequests() {
        return MAX_REQUESTS;
    }

    @Override
    public int outstanding() {
        return ready.size();
    }

    @Override
    public void submit(final IoRequest request) {
        long at = request.fileOffset();
        for (final IoSegment s : request.segments()) {
            move(request.op(), at, memory.resolve(s.region()).segment(), s.regionOffset(), s.lengthBytes());
            at += s.lengthBytes();
        }
        done(request.ioId(), request.lengthBytes());
    }

    @Override
    public void submitBlock(final long ioId, final IoOp op, final long fileOffset, final NativeRegion region,
                            final long regionOffset, final long lengthBytes) {
        if (op != IoOp.FLUSH) {
            move(op, fileOffset, region.segment(), regionOffset, lengthBytes);
        }
        done(ioId, op == IoOp.FLUSH ? 0 : lengthBytes);
    }

    private void done(final long ioId, final long result) {
        if (ready.size() >= MAX_REQUESTS) {
            throw new IllegalStateException("more than " + MAX_REQUESTS + " I/Os outstanding on an image device");
        }
        ready.add(new long[] {ioId, result});
    }

    private void move(final IoOp op, final long fileOffset, final MemorySegment seg, final long segOffset,
                      final long lengthBytes) {
        if (fileOffset % PAGE != 0 || lengthBytes % PAGE != 0 || fileOffset + lengthBytes > capacityBytes()) {
            throw new IllegalArgumentException(role + " image I/O [" + fileOffset + ", +" + lengthBytes
                + ") is not whole pages within " + capacityBytes() + " B");
        }
        for (long off = 0; off < lengthBytes; off += PAGE) {
            final long page = (fileOffset + off) / PAGE;
            if (op == IoOp.WRITE) {
                final byte[] copy = new byte[PAGE];
                MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, segOffset + off, copy, 0, PAGE);
                written.put(page, copy);
            } else {
                read(page, seg, segOffset + off);
            }
        }
    }

    private void read(final long page, final MemorySegment to, final long at) {
        final byte[] own = written.get(page);
        if (own != null) {
            MemorySegment.copy(own, 0, to, ValueLayout.JAVA_BYTE, at, PAGE);
            return;
        }
        final Integer applied = overlay.get(page);
        final int content = applied != null ? applied : durable.content(role, page);
        if (content == 0) {
            to.asSlice(at, PAGE).fill((byte) 0);
        } else {
            pages.copyOut(content - 1, to, at);
        }
    }

    @Override
    public int flush() {
        return 0;
    }

    @Override
    public int poll(final CompletionSink sink, final int max) {
        int n = 0;
        while (n < max && !ready.isEmpty()) {
            final long[] c = ready.poll();
            sink.complete(c[0], c[1]);
            n++;
        }
        return n;
    }

    @Override
    public void await(final long timeoutNs) {
        // Every I/O is ready at its submission: there is never anything to wait for.
    }

    @Override
    public void close() {
        written.clear();
    }
}
