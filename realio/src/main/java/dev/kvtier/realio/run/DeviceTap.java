package dev.kvtier.realio.run;

import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.record.DeviceRole;

/**
 * What a real run puts between the core and each of its two opened devices: nothing ({@link #NONE}), or a decorator
 * such as a {@link dev.kvtier.realio.record.RecordingDevice} (crash images). It gets the run's native memory, whose
 * bytes the devices move.
 */
@FunctionalInterface
public interface DeviceTap {
    /** The device as opened. */
    DeviceTap NONE = (role, device, memory) -> device;

    /** The device the core and the loop use in place of {@code device}, the run's device of {@code role}. */
    PolledDevice tap(DeviceRole role, PolledDevice device, NativeMemory memory);
}
