/**
 * Sign-off: a real run against its calibrated simulation and fio, compared with the previous result, into a result
 * folder under a results root ({@code signoffs/}, see {@link dev.kvtier.lab.results}).
 */
package dev.kvtier.lab.signoff;
