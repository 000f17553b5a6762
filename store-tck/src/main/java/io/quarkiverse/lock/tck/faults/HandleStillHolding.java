package io.quarkiverse.lock.tck.faults;

/**
 * A handle that still reports a hold once the run ended: stale for most (their leases ran out), but for the holder
 * of a stuck key it names who holds it.
 *
 * @param key the lock key
 * @param token the hold's token
 * @param handle the handle, and how its last operation ended
 */
public record HandleStillHolding(String key, long token, String handle) {
}
