/** Readable dumps of a journal, one event a line, for people and for grep. */
package dev.kvtier.journal.dump;
