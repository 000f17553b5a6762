package io.quarkiverse.lock.deployment.rest;

import java.net.ConnectException;
import java.time.InstantSource;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store that cannot be reached: every acquisition fails as a refused connection does.
 */
public final class DownLockStore extends ForwardingLockStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "down";

    DownLockStore() {
        super(new InMemoryLockStore(InstantSource.system()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        return Uni.createFrom().failure(new ConnectException("Connection refused:\nlocalhost/127.0.0.1:6379"));
    }

    /**
     * The store's bean, registered through the deployment SPI when the build chose it.
     */
    @Singleton
    public static class Producer {

        @Produces
        @Singleton
        LockStore downLockStore() {
            return new DownLockStore();
        }
    }
}
