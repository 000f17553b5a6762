package io.quarkiverse.lock.testsupport.proxy;

/**
 * How many faults a {@link FaultProxy} injected, by kind, since it started.
 *
 * @param drops replies dropped ({@link Fault#drop()})
 * @param delays replies delayed ({@link Fault#delay(java.time.Duration)})
 * @param cuts connections cut, by a {@link Fault#cut()} or by {@link FaultProxy#cutAll()} (one per connection closed)
 * @param replacements replies replaced ({@link Fault#replaceWith(byte[])})
 * @param swallowedBytes bytes read and discarded, in both directions, on connections made dead by
 *        {@link FaultProxy#swallow(boolean)}
 */
public record FaultCounts(long drops, long delays, long cuts, long replacements, long swallowedBytes) {

    /**
     * @return how many replies were dropped, delayed or replaced and connections cut, in all (swallowed bytes are not
     *         counted)
     */
    public long faults() {
        return drops + delays + cuts + replacements;
    }
}
