package io.quarkiverse.lock.tck.faults;

import io.quarkiverse.lock.LockType;

/**
 * A lock handle of a fault run, with the ids the section log needs.
 *
 * @param id the handle's id, unique in the run
 * @param instance the instance (registry) it belongs to
 * @param key the lock key
 * @param type its type
 * @param lock the handle, recording its operations
 * @param operation the operation using it now
 */
record TrackedHandle(String id, int instance, String key, LockType type, RecordedLock lock,
        String operation) {

    TrackedHandle during(String operation) {
        lock.during(operation);
        return new TrackedHandle(id, instance, key, type, lock, operation);
    }

    boolean reentrant() {
        return type == LockType.REENTRANT;
    }
}
