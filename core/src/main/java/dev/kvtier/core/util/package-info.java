/**
 * Plain containers the core uses that hold none of its rules (no formula, no policy), so a checker may use them too.
 */
package dev.kvtier.core.util;
