package io.quarkiverse.lock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.test.RedisServerResource;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Many workers run critical sections on one key of a real Redis, each incrementing a counter in Redis the unsafe way
 * (GET, a short pause, SET): without mutual exclusion increments would be lost.
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class RedisCriticalSectionTest {

    private static final int WORKERS = 8;
    private static final int SECTIONS_PER_WORKER = 500;

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() {
        String lockKey = "counter-" + UUID.randomUUID();
        String counterKey = "it:" + lockKey;
        ReactiveValueCommands<String, Long> counter = redis.value(Long.class);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokensInSectionOrder = new ArrayList<>();

        List<Uni<Void>> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            workers.add(Multi.createFrom().range(0, SECTIONS_PER_WORKER)
                    .onItem().transformToUniAndConcatenate(i -> {
                        ReactiveDistributedLock lock = locks.obtain(lockKey);
                        Uni<Void> section = Uni.createFrom().deferred(() -> {
                            if (inside.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            synchronized (tokensInSectionOrder) {
                                tokensInSectionOrder.add(lock.fencingToken().orElse(-1));
                            }
                            return counter.get(counterKey)
                                    .onItem().delayIt().by(Duration.ofMillis(1))
                                    .flatMap(value -> counter.set(counterKey, value == null ? 1 : value + 1));
                        }).onTermination().invoke(inside::decrementAndGet);
                        return lock.acquireAndExecute(Duration.ofSeconds(60), section);
                    })
                    .collect().last().replaceWithVoid());
        }
        Uni.join().all(workers).andFailFast().await().atMost(Duration.ofMinutes(5));

        assertThat(counter.get(counterKey).await().atMost(Duration.ofSeconds(10)))
                .isEqualTo((long) WORKERS * SECTIONS_PER_WORKER);
        assertThat(overlaps.get()).isZero();
        assertThat(tokensInSectionOrder).hasSize(WORKERS * SECTIONS_PER_WORKER)
                .doesNotContain(-1L)
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
