package io.quarkiverse.lock.tck.faults;

/**
 * When an overriding handle may have taken a lock from its holder, or freed it whoever held it: from before its
 * take-over was asked for until after its release answered (or, when an answer never came, until a margin later, since
 * the store may apply a request after its caller gave up). A regular hold this window touches may have been taken away
 * by design.
 *
 * @param key the lock key
 * @param handle the overriding handle
 * @param from when the take-over was asked for, on the store's clock (microseconds)
 * @param to until when the take-over or its release may have taken effect
 * @param token the take-over's fencing token, or -1 if it was never reported
 * @param outcome how the overriding operation ended
 */
public record OverrideWindow(String key, String handle, long from, long to, long token, String outcome) {

    /**
     * @param start the start of a hold's life
     * @param end its end
     * @return whether this window touches that span
     */
    public boolean touches(long start, long end) {
        return from <= end && to >= start;
    }
}
