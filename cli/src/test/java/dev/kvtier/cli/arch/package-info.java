/** Architecture rules for {@code cli}, checked with ArchUnit: commands parse, call {@code lab} and print. */
package dev.kvtier.cli.arch;
