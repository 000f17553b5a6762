package io.quarkiverse.lock.it;

import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;

/**
 * Counters in this JVM, for the application without a store server.
 */
@DefaultBean
@ApplicationScoped
public class LocalCounters implements Counters {

    private final ConcurrentHashMap<String, Long> values = new ConcurrentHashMap<>();

    @Override
    public Uni<Long> get(String name) {
        return Uni.createFrom().item(() -> values.getOrDefault(name, 0L));
    }

    @Override
    public Uni<Void> set(String name, long value) {
        return Uni.createFrom().item(() -> values.put(name, value)).replaceWithVoid();
    }
}
