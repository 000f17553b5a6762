package io.quarkiverse.lock.bench;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkus.arc.profile.IfBuildProfile;

/**
 * In the {@code tracing} build only: the registry that {@code @Locked} uses, switched between two registries that
 * differ only in their tracer, so that the {@code @Locked} calls with and without spans are measured in one JVM,
 * round by round in turns ({@link TracingOverhead}). Every other build keeps the extension's own registry.
 */
@IfBuildProfile("tracing")
@Alternative
@Priority(1)
@Singleton
public class SwitchedLockRegistry implements LockRegistry {

    private volatile LockRegistry current;

    /**
     * @param registry the extension's registry, used until {@link #use} switches
     */
    @Inject
    public SwitchedLockRegistry(DefaultLockRegistry registry) {
        this.current = registry;
    }

    /**
     * @param registry the registry the calls that follow use
     */
    public void use(LockRegistry registry) {
        current = registry;
    }

    @Override
    public ReactiveDistributedLock obtain(String key, LockType type) {
        return current.obtain(key, type);
    }
}
