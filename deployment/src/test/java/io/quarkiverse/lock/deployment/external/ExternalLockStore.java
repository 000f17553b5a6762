package io.quarkiverse.lock.deployment.external;

import java.time.InstantSource;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.spi.LockStore;

/**
 * A store the core has never heard of, as a third party would write one: only the SPI, under a name of its own. It
 * keeps its locks in this JVM's memory, which is enough to show that the core chooses, wires and serves it.
 */
public final class ExternalLockStore extends ForwardingLockStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "external";

    /**
     * @param locks where the locks are kept
     */
    public ExternalLockStore(LockStore locks) {
        super(locks);
    }

    /** @return a store over locks of its own */
    public static ExternalLockStore create() {
        return new ExternalLockStore(new InMemoryLockStore(InstantSource.system()));
    }

    @Override
    public String name() {
        return NAME;
    }
}
