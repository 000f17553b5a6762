package io.quarkiverse.lock.it.redis;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.it.Counters;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;

/**
 * Counters as Redis strings, on the server that holds the locks.
 */
@ApplicationScoped
public class RedisCounters implements Counters {

    private final ReactiveValueCommands<String, Long> values;

    @Inject
    public RedisCounters(ReactiveRedisDataSource redis) {
        this.values = redis.value(Long.class);
    }

    @Override
    public Uni<Long> get(String name) {
        return values.get(key(name)).map(value -> value == null ? 0L : value);
    }

    @Override
    public Uni<Void> set(String name, long value) {
        return values.set(key(name), value);
    }

    private static String key(String name) {
        return "it:counter:" + name;
    }
}
