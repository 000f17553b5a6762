package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * An extension ({@code extend}) against what can happen around it: a bad lease or a handle without hold sends nothing,
 * an extension racing the release of its handle never reaches the store after the release, an extension whose answer
 * is lost leaves the hold to its handle, and an extension of a renewed hold waits for the renewal on its way (and
 * answers {@code false}, unsent, if the hold is released meanwhile), after which renewal goes on with the new lease.
 */
class ExtendRacesTest {

    private final Commands commands = new Commands();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    private DefaultLockRegistry registry(Duration operationTimeout) {
        return locks.start(new RecordingStore(new InMemoryLockStore(InstantSource.system()), commands),
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ZERO, operationTimeout), new LocalLockStates());
    }

    @Test
    void aBadLeaseOrAHandleWithoutHoldSendsNothingToTheStore() {
        ReactiveDistributedLock lock = registry(Duration.ofSeconds(5)).obtain("nothing-sent");

        assertThat(await(lock.extend(Duration.ofSeconds(5)))).as("never acquired").isFalse();
        assertThat(await(lock.acquireOnce())).isTrue();
        assertThatThrownBy(() -> lock.extend(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lease must be positive, but is PT-0.001S");
        assertThatThrownBy(() -> lock.extend(Duration.ofNanos(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease must be at least 1 ms");
        assertThat(await(lock.release())).isTrue();
        assertThat(await(lock.extend(Duration.ofSeconds(5)))).as("released").isFalse();

        assertThat(commands.named("renew")).as("no extension reached the store").isEmpty();
    }

    @Test
    void anExtensionRacingTheReleaseOfItsHandleNeverReachesTheStoreAfterIt() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        for (int round = 0; round < 200; round++) {
            ReactiveDistributedLock lock = registry.obtain("racing-" + round).withLeaseRenewal(round % 2 == 0);
            assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
            String owner = ((LockHandle) lock).currentHold().owner();
            CountDownLatch start = new CountDownLatch(1);
            CompletableFuture<Boolean> extended = new CompletableFuture<>();
            Thread extending = new Thread(() -> {
                awaitLatch(start);
                extended.complete(await(lock.extend(Duration.ofMinutes(1))));
            });
            extending.start();
            start.countDown();
            assertThat(await(lock.release())).isTrue();
            boolean answer = extended.get(10, TimeUnit.SECONDS);

            List<String> sent = commands.of(owner);
            int released = sent.indexOf("release");
            assertThat(released).as("round %d: %s", round, sent).isEqualTo(sent.size() - 1);
            assertThat(sent.contains("renew")).as("round %d: answered %s after %s", round, answer, sent)
                    .isEqualTo(answer);
            assertThat(await(registry.obtain("racing-" + round).acquireOnce())).as("round %d: freed", round).isTrue();
        }
    }

    @Test
    void anExtensionWhoseAnswerIsLostFailsAndLeavesTheHoldToItsHandle() {
        DefaultLockRegistry registry = registry(Duration.ofMillis(300));
        ReactiveDistributedLock lock = registry.obtain("answer-lost");
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
        commands.loseNextRenewalAnswer();

        assertThatThrownBy(() -> await(lock.extend(Duration.ofMinutes(1)))).isInstanceOf(LockException.class)
                .hasMessageContaining("answer-lost").hasMessageContaining("extend");

        assertThat(lock.fencingToken()).as("the handle still has its hold").isPresent();
        assertThat(await(lock.isAcquired())).isTrue();
        assertThat(await(lock.extend(Duration.ofSeconds(5)))).as("extended again").isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(registry.obtain("answer-lost").acquireOnce())).as("nothing stranded").isTrue();
    }

    @Test
    void anExtensionOfARenewedHoldWaitsForTheRenewalOnItsWayAndRenewalGoesOnWithItsLease() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("renewing").withLeaseRenewal(true);
        CompletableFuture<Boolean> renewalAnswer = new CompletableFuture<>();
        CountDownLatch renewalSent = commands.holdNextRenewalAnswer(renewalAnswer);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(900)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        assertThat(renewalSent.await(5, TimeUnit.SECONDS)).as("a renewal is on its way").isTrue();

        CompletableFuture<Boolean> extended = lock.extend(Duration.ofMillis(1500)).subscribeAsCompletionStage();
        Thread.sleep(200);
        assertThat(commands.leasesOf(owner)).as("the extension waits for the renewal's answer").containsExactly(900L);
        assertThat(extended).isNotDone();

        renewalAnswer.complete(true);
        assertThat(extended.get(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(1200);
        List<Long> leases = commands.leasesOf(owner);
        assertThat(leases).as("the renewal, the extension, then renewals every third of its lease")
                .startsWith(900L, 1500L).hasSizeBetween(3, 4).containsOnly(900L, 1500L);
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void anExtensionWaitingBehindARenewalAnswersFalseWhenTheHoldIsReleasedAndIsNeverSent() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("released-while-waiting").withLeaseRenewal(true);
        CompletableFuture<Boolean> renewalAnswer = new CompletableFuture<>();
        CountDownLatch renewalSent = commands.holdNextRenewalAnswer(renewalAnswer);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(900)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        assertThat(renewalSent.await(5, TimeUnit.SECONDS)).as("a renewal is on its way").isTrue();
        CompletableFuture<Boolean> extended = lock.extend(Duration.ofMinutes(1)).subscribeAsCompletionStage();

        assertThat(await(lock.release())).isTrue();
        renewalAnswer.complete(true);

        assertThat(extended.get(5, TimeUnit.SECONDS)).as("its hold ended before its turn").isFalse();
        assertThat(commands.of(owner)).as("sent for the hold").containsExactly("renew", "release");
        assertThat(await(registry.obtain("released-while-waiting").acquireOnce())).as("freed").isTrue();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The commands the store was sent, per owner, and faults of the next renewal. */
    static final class Commands {

        private final List<String[]> sent = new CopyOnWriteArrayList<>();
        private final AtomicReference<CompletableFuture<Boolean>> heldAnswer = new AtomicReference<>();
        private final AtomicReference<CountDownLatch> heldSent = new AtomicReference<>();
        private volatile boolean loseNext;

        void record(String name, String owner, long leaseMillis) {
            sent.add(new String[] { name, owner, Long.toString(leaseMillis) });
        }

        List<String> named(String name) {
            return sent.stream().filter(command -> command[0].equals(name)).map(command -> command[1]).toList();
        }

        List<String> of(String owner) {
            return sent.stream().filter(command -> owner.equals(command[1])).map(command -> command[0]).toList();
        }

        List<Long> leasesOf(String owner) {
            return sent.stream().filter(command -> owner.equals(command[1]) && command[0].equals("renew"))
                    .map(command -> Long.parseLong(command[2])).toList();
        }

        void loseNextRenewalAnswer() {
            loseNext = true;
        }

        CountDownLatch holdNextRenewalAnswer(CompletableFuture<Boolean> answer) {
            CountDownLatch latch = new CountDownLatch(1);
            heldSent.set(latch);
            heldAnswer.set(answer);
            return latch;
        }

        /** The renewal's answer as the test wants it: the store's, none at all, or one the test gives later. */
        Uni<Boolean> answer(Uni<Boolean> renewal) {
            if (loseNext) {
                loseNext = false;
                return renewal.onItem().transformToUni(ignored -> Uni.createFrom().nothing());
            }
            CompletableFuture<Boolean> held = heldAnswer.getAndSet(null);
            if (held != null) {
                heldSent.get().countDown();
                return renewal.onItem().transformToUni(ignored -> Uni.createFrom().completionStage(held));
            }
            return renewal;
        }
    }

    /**
     * Records what it is sent, in the order it is sent (the in-memory store applies a command when it is called), and
     * lets {@link Commands} fault renewals' answers.
     */
    static final class RecordingStore extends ForwardingLockStore {

        private final Commands commands;

        RecordingStore(LockStore delegate, Commands commands) {
            super(delegate);
            this.commands = commands;
        }

        /** Answers late or never, as a store over a network may: bounded by the operation timeout. */
        @Override
        public boolean answersAtOnce() {
            return false;
        }

        @Override
        public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
            commands.record("renew", owner, leaseMillis);
            return commands.answer(delegate.renew(key, owner, leaseMillis));
        }

        @Override
        public Uni<Boolean> release(String key, String owner) {
            commands.record("release", owner, 0);
            return delegate.release(key, owner);
        }

        @Override
        public Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
            commands.record("releaseAfter", owner, leaseMillis);
            return delegate.releaseAfter(key, owner, leaseMillis);
        }
    }
}
