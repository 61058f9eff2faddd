/**
 * What every property of the suite shares: the try budget ({@code -Dkvtier.deep=true} multiplies tries by ten),
 * the count of actions explored, and the lifecycle hook that applies both.
 */
package dev.kvtier.property.support;
