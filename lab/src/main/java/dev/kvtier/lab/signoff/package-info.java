/** Sign-off: a real run against its calibrated simulation and fio, compared with the previous result, into results/. */
package dev.kvtier.lab.signoff;
