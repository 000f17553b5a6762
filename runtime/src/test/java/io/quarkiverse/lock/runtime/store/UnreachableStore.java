package io.quarkiverse.lock.runtime.store;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store that nothing may reach: each operation is recorded and fails at once, so a test of argument checks can
 * assert that a refused call never got as far as the store.
 */
public final class UnreachableStore implements LockStore {

    private final List<String> reached = new CopyOnWriteArrayList<>();

    /**
     * @return the operations that reached the store, in order
     */
    public List<String> reached() {
        return reached;
    }

    private <T> T reach(String operation, String key) {
        reached.add(operation + " " + key);
        throw new AssertionError(operation + " of '" + key + "' reached the store");
    }

    @Override
    public String name() {
        return "unreachable";
    }

    @Override
    public boolean answersAtOnce() {
        return true;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        return reach("tryAcquire", key);
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        return reach("takeOver", key);
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        return reach("forceRelease", key);
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        return reach("takeBack", key);
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return reach("release", key);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return reach("renew", key);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return reach("isHeld", key);
    }

    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        return reach("listHeld", cursor);
    }
}
