package io.quarkiverse.lock.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * What an application does with its locks: plain acquisitions, guarded sections of each shape, one not acquired and
 * one cancelled; run by {@link NoTracingLibraryLoadedTest} with its classes defined by a recording class loader.
 */
public class TracingFreeScenario implements Runnable {

    @Override
    public void run() {
        Vertx vertx = Vertx.vertx();
        DefaultLockRegistry registry = RegistryFixture.started(new InMemoryLockStore(InstantSource.system()),
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5)),
                new LocalLockStates(), vertx);
        try {
            ReactiveDistributedLock holder = registry.obtain("scenario").withMetricsName("scenario");
            assertThat(RegistryFixture.await(holder.acquire())).isTrue();
            assertThat(RegistryFixture.await(registry.obtain("scenario").acquire(Duration.ofMillis(50)))).isFalse();
            assertThat(RegistryFixture.await(holder.release())).isTrue();

            assertThat(RegistryFixture.await(registry.obtain("scenario")
                    .acquireAndExecute(Duration.ofSeconds(1), Uni.createFrom().item("uni")))).isEqualTo("uni");
            assertThat(registry.obtain("scenario").acquireAndExecuteMany(Duration.ofSeconds(1),
                    Multi.createFrom().items("a", "b")).collect().asList().await().atMost(RegistryFixture.TIMEOUT))
                    .containsExactly("a", "b");
            assertThat(registry.obtain("scenario").toBlocking().acquireAndExecute(Duration.ofSeconds(1),
                    () -> "blocking")).isEqualTo("blocking");

            Cancellable running = registry.obtain("scenario")
                    .acquireAndExecute(Duration.ofSeconds(1), Uni.createFrom().nothing())
                    .subscribe().with(ignored -> {
                    });
            running.cancel();
            RegistryFixture.assertAcquirableSoon(registry, "scenario");

            assertThat(RegistryFixture.await(holder.acquire())).isTrue();
            try {
                registry.obtain("scenario").toBlocking().acquireAndExecute(Duration.ofMillis(20), () -> "never");
                throw new AssertionError("acquired a held lock");
            } catch (CannotAcquireLockException expected) {
                // the lock is held by another handle
            }
            assertThat(RegistryFixture.await(holder.release())).isTrue();
        } finally {
            registry.close();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
