package io.quarkiverse.lock.runtime.store.redis;

/**
 * How many replicas must acknowledge an acquisition (Redis {@code WAIT}) before it counts, and how long to wait for
 * them.
 *
 * @param replicas the number of replicas; 0 for none (acquisitions count as soon as the primary granted them)
 * @param timeoutMillis how long to wait for them, positive when {@code replicas} is
 */
public record ReplicaAcknowledgement(int replicas, long timeoutMillis) {

    /** No acknowledgement: the default. */
    public static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, 0);
}
