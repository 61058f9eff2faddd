/**
 * Device and host-cost profiles: the numbers the simulator's device model and host cost model take, bundled by name
 * or measured on a real machine by {@code kvtier calibrate}.
 */
package dev.kvtier.harness.profile;
