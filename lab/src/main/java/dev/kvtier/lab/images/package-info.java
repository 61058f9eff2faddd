/**
 * Crash images from a real run's I/O ({@code kvtier crash-images}): one real run recorded
 * ({@link dev.kvtier.realio.record.IoLog}), the disk images a power cut could have left built from the record
 * ({@link dev.kvtier.lab.images.Timeline}, {@link dev.kvtier.lab.images.ImagePlan}), and the core's recovery run on
 * each in memory ({@link dev.kvtier.lab.images.ImageChecker}) and judged as a crash campaign judges a kill.
 */
package dev.kvtier.lab.images;
