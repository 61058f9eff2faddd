/** Architecture rules for {@code lab}, checked with ArchUnit. */
package dev.kvtier.lab.arch;
