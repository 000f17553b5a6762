package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.SHORT_LEASE;
import static io.quarkiverse.lock.tck.TckSupport.TIMEOUT;
import static io.quarkiverse.lock.tck.TckSupport.acquired;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.eventually;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static io.quarkiverse.lock.tck.TckSupport.sleepUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Leases through the public API: a release after the lease ran out, lease renewal (kept while held, stopped with its
 * instance, and a lock lost under a renewing holder), and minimum holds ({@code withHoldAtLeast}) kept in the store().
 */
public interface LockLeaseContract extends StoreFixture {

    @Test
    default void aReleaseAfterTheLeaseRanOutFailsAndAnotherHandleCanThenTakeTheLock() {
        String key = newKey("expired");
        ReactiveDistributedLock holder = acquired(registry(), key, SHORT_LEASE);

        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(holder.isAcquired())).isFalse();
        assertThatThrownBy(() -> await(holder.release()))
                .isInstanceOf(LockExpiredException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("integrity");
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    default void anActionThatOutlivesItsLeaseFailsWithLockExpired() {
        String key = newKey("outlived");
        ReactiveDistributedLock lock = acquired(registry(), key, SHORT_LEASE);
        letLeasesRunOut(SHORT_LEASE);
        assertThatThrownBy(() -> await(lock.release())).isInstanceOf(LockExpiredException.class);
        assertThat(await(lock.release())).isFalse();
    }

    @Test
    default void aRenewingHolderKeepsTheLockForThreeLeasesWhileAContenderNeverGetsIt() {
        String key = newKey("renewing");
        ReactiveDistributedLock holder = registry().obtain(key).withLeaseRenewal(true);
        ReactiveDistributedLock contender = registry().obtain(key);
        Uni<List<Boolean>> contenderAttemptsDuringThreeLeases = Multi.createBy().repeating()
                .uni(() -> contender.acquireOnce().onItem().delayIt().by(SHORT_LEASE.dividedBy(6))).atMost(20)
                .collect().asList();

        List<Boolean> attempts = await(holder.acquireAndExecute(Duration.ZERO, SHORT_LEASE,
                contenderAttemptsDuringThreeLeases));

        assertThat(attempts).hasSize(20).containsOnly(false);
        assertThat(holder.fencingToken()).isEmpty();
        assertThat(await(contender.acquireOnce())).isTrue();
    }

    @Test
    default void whenTheHoldersRenewalStopsTheLockFreesWithinOneLease() {
        String key = newKey("renewal-stops");
        StandaloneLockRegistry dying = startInstance();
        ReactiveDistributedLock holder = dying.obtain(key).withLeaseRenewal(true);
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        dying.close();

        assertThat(await(registry().obtain(key).acquireOnce())).as("held until its last lease ends").isFalse();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    default void aHolderWhoseRenewalFindsTheLockLostIsToldAndItsActionCancelled() throws InterruptedException {
        String key = newKey("renewal-lost");
        EndlessAction endless = new EndlessAction();
        ReactiveDistributedLock holder = registry().obtain(key).withLeaseRenewal(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        holder.acquireAndExecute(Duration.ZERO, SHORT_LEASE, endless.action).subscribe().with(ignored -> {
        }, error -> {
            failure.set(error);
            failed.countDown();
        });
        assertThat(endless.awaitStart()).isTrue();

        deleteLock(key);

        assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(failure.get()).isInstanceOf(LockExpiredException.class).hasMessageContaining(key);
        assertThat(endless.cancellations()).isEqualTo(1);
        assertThat(holder.fencingToken()).isEmpty();
    }

    @Test
    default void aLockHeldAtLeastTwoSecondsStaysHeldHowEverItsSectionEndsAndFreesByItselfAfterThem() throws Exception {
        Duration holdAtLeast = Duration.ofSeconds(2);
        Duration lease = Duration.ofSeconds(5);
        Map<String, Long> ranAt = new ConcurrentHashMap<>();

        String item = newKey("min-hold-item");
        assertThat(await(registry().obtain(item).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, item, Uni.createFrom().item("done")))))
                .isEqualTo("done");

        String failure = newKey("min-hold-failure");
        IllegalStateException declined = new IllegalStateException("declined");
        assertThatThrownBy(() -> await(registry().obtain(failure).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, failure, Uni.createFrom().failure(declined)))))
                .isSameAs(declined);

        String cancelled = newKey("min-hold-cancelled");
        Cancellable running = registry().obtain(cancelled).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, cancelled, Uni.createFrom().nothing()))
                .subscribe().with(ignored -> {
                });
        eventually(() -> ranAt.containsKey(cancelled));
        running.cancel();

        String stream = newKey("min-hold-stream");
        assertThat(registry().obtain(stream).withHoldAtLeast(holdAtLeast)
                .acquireAndExecuteMany(Duration.ZERO, lease, Multi.createFrom().range(0, 3)
                        .onSubscription().invoke(() -> ranAt.put(stream, System.nanoTime())))
                .collect().asList().await().atMost(TIMEOUT)).containsExactly(0, 1, 2);

        String streamCancelled = newKey("min-hold-stream-cancelled");
        assertThat(registry().obtain(streamCancelled).withHoldAtLeast(holdAtLeast)
                .acquireAndExecuteMany(Duration.ZERO, lease, Multi.createFrom().ticks().every(Duration.ofMillis(10))
                        .onSubscription().invoke(() -> ranAt.put(streamCancelled, System.nanoTime())))
                .select().first().collect().asList().await().atMost(TIMEOUT)).hasSize(1);

        String returned = newKey("min-hold-blocking-return");
        assertThat(registry().obtainBlocking(returned).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, () -> ranAt.put(returned, System.nanoTime()))).isNull();

        String thrown = newKey("min-hold-blocking-throw");
        assertThatThrownBy(() -> registry().obtainBlocking(thrown).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, () -> {
                    ranAt.put(thrown, System.nanoTime());
                    throw declined;
                })).isSameAs(declined);

        String released = newKey("min-hold-release");
        ReactiveDistributedLock renewing = registry().obtain(released).withHoldAtLeast(holdAtLeast)
                .withLeaseRenewal(true);
        assertThat(await(renewing.acquire(Duration.ZERO, Duration.ofMillis(2100)))).isTrue();
        ranAt.put(released, System.nanoTime());
        assertThat(await(renewing.release())).as("its hold ended").isTrue();
        assertThat(renewing.fencingToken()).isEmpty();
        assertThat(await(renewing.release())).as("nothing left to release").isFalse();

        List<Map.Entry<String, Long>> sections = ranAt.entrySet().stream().sorted(Map.Entry.comparingByValue())
                .toList();
        assertThat(sections).hasSize(8);
        for (Map.Entry<String, Long> section : sections) {
            sleepUntil(section.getValue() + Duration.ofMillis(500).toNanos());
            assertThat(await(registry().obtain(section.getKey()).acquireOnce()))
                    .as("0.5 s after the section on %s", section.getKey()).isFalse();
        }
        for (Map.Entry<String, Long> section : sections) {
            sleepUntil(section.getValue() + Duration.ofMillis(2500).toNanos());
            ReactiveDistributedLock next = registry().obtain(section.getKey());
            assertThat(await(next.acquireOnce())).as("2.5 s after the section on %s", section.getKey()).isTrue();
            assertThat(await(next.release())).isTrue();
        }
    }

    @Test
    default void aMinimumHoldLivesInTheStoreSoAHolderThatDiesDuringItFreesTheLockWhenItEndsNotAtItsLease() {
        String key = newKey("min-hold-crash");
        StandaloneLockRegistry dying = startInstance();
        ReactiveDistributedLock holder = dying.obtain(key).withHoldAtLeast(Duration.ofSeconds(2))
                .withLeaseRenewal(true);
        AtomicLong ranAt = new AtomicLong();
        await(holder.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item(() -> ranAt.getAndSet(System.nanoTime()))));

        dying.close();

        sleepUntil(ranAt.get() + Duration.ofMillis(500).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce())).as("held during its minimum hold").isFalse();
        sleepUntil(ranAt.get() + Duration.ofMillis(2500).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce()))
                .as("free when its minimum hold ends, 7.5 s before its lease would").isTrue();
    }

    private static <T> Uni<T> ranAt(Map<String, Long> ranAt, String key, Uni<T> section) {
        return section.onSubscription().invoke(() -> ranAt.put(key, System.nanoTime()));
    }
}
