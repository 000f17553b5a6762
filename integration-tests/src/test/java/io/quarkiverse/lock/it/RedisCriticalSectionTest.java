package io.quarkiverse.lock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.CriticalSectionRace;
import io.quarkiverse.lock.test.RedisServerResource;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

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
        String counterKey = "it:counter-" + UUID.randomUUID();
        ReactiveValueCommands<String, Long> counter = redis.value(Long.class);

        CriticalSectionRace race = CriticalSectionRace.run(locks, WORKERS, SECTIONS_PER_WORKER,
                () -> counter.get(counterKey), value -> counter.set(counterKey, value));

        assertThat(counter.get(counterKey).await().atMost(Duration.ofSeconds(10)))
                .isEqualTo((long) WORKERS * SECTIONS_PER_WORKER);
        race.assertExclusiveWithRisingTokens(WORKERS * SECTIONS_PER_WORKER);
    }
}
