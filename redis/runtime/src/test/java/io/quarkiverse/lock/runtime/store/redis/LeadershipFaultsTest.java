package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.leadership.LeadershipSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.StoreLockAdmin;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Leader election on a real redis-server when things go wrong: a store that hangs, dies or is restarted, a connection
 * that dies silently, slow replies, guarded work that is slow to stop, and joins, leaves and yields that race the
 * election. Unless a test says otherwise, the settings are the store TCK's: lease 1 s, renewals every 200 ms, margin
 * 250 ms (the belief lasts 750 ms after the request that confirmed it was sent).
 */
class LeadershipFaultsTest {

    static final Duration LEASE = Duration.ofMillis(1000);
    static final Duration RENEW = Duration.ofMillis(200);
    static final Duration MARGIN = Duration.ofMillis(250);

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * Every group of an application shares one timer thread, which ends the terms whose deadline passed. Guarded work
     * that takes long to stop (closing a queue consumer, a connection) must not hold it: here the connection to the
     * store dies silently, group x's term ends first and its work takes 2.5 s to stop; group y's term ends at its own
     * deadline all the same, and y's work was told to stop before another instance leads y.
     */
    @Test
    void guardedWorkIsToldToStopAtItsDeadlineWhileAnotherGroupsWorkIsSlowToStop() {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry first = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        DefaultLeadership one = leadership(first, Map.of(
                "x", new LeadershipSettings(Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(100)),
                "y", new LeadershipSettings(LEASE, RENEW, MARGIN)));
        one.group("x").join();
        one.group("y").join();
        eventually("x and y led by the first instance", () -> one.group("x").isLeader() && one.group("y").isLeader(),
                Duration.ofSeconds(5));
        DefaultLockRegistry second = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup otherY = leadership(second, "y").group("y");
        otherY.join();

        AtomicLong xStopping = new AtomicLong();
        one.group("x").whileLeading(Uni.createFrom().nothing().onCancellation().invoke(() -> {
            xStopping.set(System.nanoTime());
            Pause.sleep(2_500);
        })).subscribe().with(item -> {
        }, failure -> {
        });
        AtomicLong yStopped = new AtomicLong();
        one.group("y").whileLeadingMany(Multi.createFrom().ticks().every(Duration.ofMillis(10)))
                .onTermination().invoke(() -> yStopped.set(System.nanoTime()))
                .subscribe().with(tick -> {
                }, failure -> {
                });

        proxy.swallow(true);
        eventually("x's work stopping", () -> xStopping.get() != 0, Duration.ofSeconds(2));
        eventually("the other instance leads y", otherY::isLeader, Duration.ofSeconds(5));
        long otherLeads = System.nanoTime();
        long yStoppedAt = yStopped.get();
        assertThat(yStoppedAt).as("y's work on the first instance still running once another instance leads y "
                + "(x's work began to stop %d ms before)", (otherLeads - xStopping.get()) / 1_000_000).isNotZero();
    }

    private DefaultLeadership leadership(DefaultLockRegistry registry, String group, LeadershipSettings settings) {
        return leadership(registry, Map.of(group, settings));
    }

    private DefaultLeadership leadership(DefaultLockRegistry registry, String group) {
        return leadership(registry, group, new LeadershipSettings(LEASE, RENEW, MARGIN));
    }

    private DefaultLeadership leadership(DefaultLockRegistry registry, Map<String, LeadershipSettings> groups) {
        return redis.closeAfterEach(new DefaultLeadership(registry, new StoreLockAdmin(registry), groups,
                groups.keySet(), change -> {
                }, registry.observer()));
    }

    static void eventually(String what, BooleanSupplier condition, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("still not true after " + within.toMillis() + " ms: " + what);
            }
            Pause.sleep(2);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
