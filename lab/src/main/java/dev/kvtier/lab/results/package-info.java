/**
 * Committed results a person can navigate: one folder per kind under a results root ({@link
 * dev.kvtier.lab.results.ResultKind}), each result in a folder the tool names ({@link
 * dev.kvtier.lab.results.ResultFolders}) with a metadata file ({@link dev.kvtier.lab.results.ResultInfo}), the look-up
 * of the previous result, and the generated index {@code README.md} ({@link dev.kvtier.lab.results.ResultsIndex}).
 */
package dev.kvtier.lab.results;
