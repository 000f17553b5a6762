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
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
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
 * <p>
 * The review's findings: a re-entry's renewal landing after an extension never shortens it (with or without renewal),
 * an extension answered after its hold was found lost answers {@code false}, one that timed out leaves the hold
 * renewed on its old lease, an extended forever hold of a renewing handle is renewed, and a lease past the longest is
 * refused. And more races: two extensions at once reach the store in order, a cancelled one waiting for its turn is
 * never sent, one cancelled once sent still sets the renewals' lease, and extensions racing renewals and re-entries
 * never let another handle in.
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

    @Test
    void aReentrysRenewalLandingAfterAnExtensionNeverShortensTheExtendedLeaseOfAHoldWithoutRenewal() throws Exception {
        aReentrysRenewalLandingAfterAnExtensionNeverShortensTheExtendedLease(false);
    }

    @Test
    void aReentrysRenewalLandingAfterAnExtensionNeverShortensTheExtendedLeaseOfARenewedHold() throws Exception {
        aReentrysRenewalLandingAfterAnExtensionNeverShortensTheExtendedLease(true);
    }

    /**
     * A re-entry's renewal held on its way to the store while the hold is extended to a minute: whatever reaches the
     * store last, the lease stays the extension's, so no other handle acquires once the acquisition's lease is over.
     */
    private void aReentrysRenewalLandingAfterAnExtensionNeverShortensTheExtendedLease(boolean renew) throws Exception {
        String key = "reentry-after-extension-" + renew;
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain(key, LockType.REENTRANT).withLeaseRenewal(renew);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(2)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        Gate reentry = commands.holdNextRenewal(2500);
        CompletableFuture<Boolean> reentered = lock.acquire(Duration.ZERO, Duration.ofMillis(2500))
                .subscribeAsCompletionStage();
        assertThat(reentry.called.await(5, TimeUnit.SECONDS)).as("the re-entry's renewal is on its way").isTrue();

        CompletableFuture<Boolean> extended = lock.extend(Duration.ofMinutes(1)).subscribeAsCompletionStage();
        Thread.sleep(100);
        reentry.open();
        assertThat(reentered.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(extended.get(5, TimeUnit.SECONDS)).isTrue();
        long extendedAt = System.nanoTime();

        sleepUntil(extendedAt + Duration.ofMillis(3000).toNanos());
        assertThat(await(registry.obtain(key).acquireOnce()))
                .as("another handle, past the re-entry's lease, within the extension's (sent: %s)",
                        commands.leasesOf(owner))
                .isFalse();
        assertThat(await(lock.isAcquired())).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(registry.obtain(key).acquireOnce())).as("freed by the last release").isTrue();
    }

    @Test
    void anExtensionAnsweredAfterItsHoldWasFoundLostAnswersFalse() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("answered-after-lost").withLeaseRenewal(true);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(600)))).isTrue();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        CountDownLatch extensionSent = commands.holdAnswerOfRenewal(60_000, answer);
        CompletableFuture<Boolean> extended = lock.extend(Duration.ofMinutes(1)).subscribeAsCompletionStage();
        assertThat(extensionSent.await(5, TimeUnit.SECONDS)).as("the extension is on its way").isTrue();

        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (await(lock.isAcquired()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(await(lock.isAcquired())).as("found lost: its lease ran out unconfirmed").isFalse();
        answer.complete(true);

        assertThat(extended.get(5, TimeUnit.SECONDS)).as("answered after its hold was found lost").isFalse();
    }

    @Test
    void anExtensionThatTimesOutKeepsTheHoldRenewedOnItsOldLease() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofMillis(300));
        ReactiveDistributedLock lock = registry.obtain("extension-timed-out").withLeaseRenewal(true);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(900)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        commands.dropNextRenewal(60_000);

        assertThatThrownBy(() -> await(lock.extend(Duration.ofMinutes(1)))).isInstanceOf(LockException.class)
                .hasMessageContaining("extension-timed-out");
        Thread.sleep(2000);

        assertThat(await(lock.isAcquired())).as("still held, renewed on its old lease (sent: %s)",
                commands.leasesOf(owner)).isTrue();
        assertThat(await(registry.obtain("extension-timed-out").acquireOnce())).as("another handle").isFalse();
        List<Long> leases = commands.leasesOf(owner);
        assertThat(leases).as("the extension, never applied").containsOnlyOnce(60_000L);
        assertThat(leases.subList(leases.indexOf(60_000L) + 1, leases.size())).as("renewals of the old lease")
                .hasSizeGreaterThan(2).containsOnly(900L);
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void anExtendedForeverHoldOfARenewingHandleIsRenewedAndNeverBelievedHeldPastItsLease() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("forever-extended").withLeaseRenewal(true);
        assertThat(await(lock.acquireForever())).isTrue();

        assertThat(await(lock.extend(Duration.ofMillis(600)))).isTrue();
        Thread.sleep(1500);

        assertThat(await(lock.isAcquired())).as("the store still has it, past the extension's lease").isTrue();
        assertThat(await(registry.obtain("forever-extended").acquireOnce()))
                .as("another handle, past the extension's lease: renewed").isFalse();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(registry.obtain("forever-extended").acquireOnce())).as("released").isTrue();
    }

    @Test
    void anExtendedForeverHoldWithoutRenewalEndsWithItsNewLease() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("forever-extended-unrenewed");
        assertThat(await(lock.acquireForever())).isTrue();

        assertThat(await(lock.extend(Duration.ofMillis(300)))).isTrue();
        Thread.sleep(600);

        assertThat(await(lock.isAcquired())).as("its new lease ran out").isFalse();
        assertThat(await(registry.obtain("forever-extended-unrenewed").acquireOnce())).isTrue();
    }

    @Test
    void aLeaseLongerThanTheLongestIsRefusedBeforeTheStoreAndTheLongestIsHeld() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        for (boolean renew : new boolean[] { false, true }) {
            String key = "longest-" + renew;
            ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(renew);
            assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(600)))).isTrue();
            String owner = ((LockHandle) lock).currentHold().owner();

            for (Duration tooLong : List.of(LockArguments.LONGEST.plusMillis(1), Duration.ofMillis(Long.MAX_VALUE),
                    Duration.ofSeconds(Long.MAX_VALUE))) {
                assertThatThrownBy(() -> lock.extend(tooLong)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("lease must be at most 36500 days");
                assertThatThrownBy(() -> lock.toBlocking().extend(tooLong))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("lease must be at most 36500 days");
            }
            assertThat(commands.leasesOf(owner)).as("nothing sent for a lease too long").isEmpty();

            assertThat(await(lock.extend(LockArguments.LONGEST))).isTrue();
            Thread.sleep(1000);
            assertThat(await(lock.isAcquired())).as("renew %s: the longest lease does not end in the past", renew)
                    .isTrue();
            assertThat(await(registry.obtain(key).acquireOnce())).as("another handle").isFalse();
            assertThat(await(lock.release())).isTrue();
        }
    }

    @Test
    void twoExtensionsAtOnceReachTheStoreInTheOrderTheyWereAskedFor() throws Exception {
        for (boolean renew : new boolean[] { false, true }) {
            String key = "two-at-once-" + renew;
            DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
            ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(renew);
            assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(3)))).isTrue();
            String owner = ((LockHandle) lock).currentHold().owner();
            Gate first = commands.holdNextRenewal(60_000);
            CompletableFuture<Boolean> longer = lock.extend(Duration.ofMinutes(1)).subscribeAsCompletionStage();
            assertThat(first.called.await(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> shorter = lock.extend(Duration.ofMillis(900)).subscribeAsCompletionStage();
            Thread.sleep(100);
            first.open();

            assertThat(longer.get(5, TimeUnit.SECONDS)).isTrue();
            assertThat(shorter.get(5, TimeUnit.SECONDS)).isTrue();
            List<Long> sent = commands.leasesOf(owner);
            assertThat(sent.subList(sent.indexOf(60_000L), sent.size())).as("renew %s", renew)
                    .startsWith(60_000L, 900L);
            Thread.sleep(1500);
            assertThat(await(registry.obtain(key).acquireOnce()))
                    .as("renew %s: the lease asked for last is the store's (sent: %s)", renew,
                            commands.leasesOf(owner))
                    .isEqualTo(!renew);
            if (renew) {
                List<Long> after = commands.leasesOf(owner);
                assertThat(after.subList(after.indexOf(900L), after.size()))
                        .as("renewals of the lease asked for last").hasSizeGreaterThan(1).containsOnly(900L);
                assertThat(await(lock.release())).isTrue();
            }
        }
    }

    @Test
    void anExtensionCancelledWhileWaitingForItsTurnIsNeverSent() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("cancelled-waiting");
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(3)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        Gate first = commands.holdNextRenewal(2000);
        CompletableFuture<Boolean> sent = lock.extend(Duration.ofSeconds(2)).subscribeAsCompletionStage();
        assertThat(first.called.await(5, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Boolean> cancelled = lock.extend(Duration.ofMinutes(1)).subscribeAsCompletionStage();
        Thread.sleep(100);
        cancelled.cancel(false);
        first.open();

        assertThat(sent.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(await(lock.extend(Duration.ofSeconds(1)))).as("the line goes on").isTrue();
        assertThat(commands.leasesOf(owner)).as("the cancelled one is not sent").containsExactly(2000L, 1000L);
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void anExtensionCancelledAfterItWasSentSetsTheRenewalsLeaseOnceTheStoreConfirmsIt() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("cancelled-sent").withLeaseRenewal(true);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(3)))).isTrue();
        String owner = ((LockHandle) lock).currentHold().owner();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        CountDownLatch extensionSent = commands.holdAnswerOfRenewal(600, answer);
        CompletableFuture<Boolean> extended = lock.extend(Duration.ofMillis(600)).subscribeAsCompletionStage();
        assertThat(extensionSent.await(5, TimeUnit.SECONDS)).isTrue();

        extended.cancel(false);
        Thread.sleep(100);
        answer.complete(true);
        Thread.sleep(1500);

        assertThat(await(lock.isAcquired())).as("renewed on the lease the store confirmed").isTrue();
        List<Long> leases = commands.leasesOf(owner);
        assertThat(leases.subList(leases.indexOf(600L), leases.size()))
                .as("the extension, then renewals of its lease, every 200 ms").hasSizeGreaterThan(3)
                .containsOnly(600L);
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void extensionsRacingRenewalsAndReentriesNeverLetAnotherHandleIn() throws Exception {
        DefaultLockRegistry registry = registry(Duration.ofSeconds(5));
        ReactiveDistributedLock lock = registry.obtain("racing-renewals", LockType.REENTRANT).withLeaseRenewal(true);
        ReactiveDistributedLock other = registry.obtain("racing-renewals");
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(300)))).isTrue();
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        CompletableFuture<Void> extending = CompletableFuture.runAsync(() -> {
            for (int i = 0; System.nanoTime() < until; i++) {
                assertThat(await(lock.extend(Duration.ofMillis(i % 2 == 0 ? 300 : 700)))).isTrue();
            }
        });
        CompletableFuture<Void> reentering = CompletableFuture.runAsync(() -> {
            while (System.nanoTime() < until) {
                assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(300)))).isTrue();
                assertThat(await(lock.release())).isTrue();
            }
        });
        while (System.nanoTime() < until) {
            assertThat(await(other.acquireOnce())).as("another handle while the hold is extended").isFalse();
            Thread.sleep(20);
        }
        extending.get(5, TimeUnit.SECONDS);
        reentering.get(5, TimeUnit.SECONDS);
        assertThat(await(lock.isAcquired())).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(other.acquireOnce())).isTrue();
    }

    @Test
    void anExtensionsCallerRunsWithoutHoldingUpTheHoldsOtherLeaseCommands() {
        DefaultLockRegistry registry = locks.start(new InMemoryLockStore(InstantSource.system()),
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(5)),
                new LocalLockStates());
        ReactiveDistributedLock lock = registry.obtain("answered-at-once", LockType.REENTRANT).withLeaseRenewal(true);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(3)))).isTrue();

        Boolean inner = await(lock.extend(Duration.ofSeconds(5)).map(extended -> CompletableFuture
                .supplyAsync(() -> await(lock.extend(Duration.ofSeconds(6)).chain(
                        ignored -> lock.acquire(Duration.ZERO, Duration.ofSeconds(1)))))
                .orTimeout(5, TimeUnit.SECONDS).join()));

        assertThat(inner).as("another thread's extension and re-entry, while the first caller is answered").isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(lock.release())).isTrue();
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A renewal setting a given lease, which the store applies only once the test opens the gate. */
    static final class Gate {

        /** Counted down when the store is asked for the renewal. */
        final CountDownLatch called = new CountDownLatch(1);
        private final CompletableFuture<Void> opened = new CompletableFuture<>();
        private final long leaseMillis;

        Gate(long leaseMillis) {
            this.leaseMillis = leaseMillis;
        }

        void open() {
            opened.complete(null);
        }
    }

    /** The commands the store was sent, per owner, and faults of the next renewal. */
    static final class Commands {

        private final List<String[]> sent = new CopyOnWriteArrayList<>();
        private final AtomicReference<CompletableFuture<Boolean>> heldAnswer = new AtomicReference<>();
        private final AtomicReference<CountDownLatch> heldSent = new AtomicReference<>();
        private final AtomicReference<Gate> gate = new AtomicReference<>();
        private final AtomicReference<Gate> heldAnswerTo = new AtomicReference<>();
        private final AtomicReference<CompletableFuture<Boolean>> answerTo = new AtomicReference<>();
        private volatile boolean loseNext;
        private volatile long dropLease = -1;

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

        /** The next renewal setting {@code leaseMillis} is neither applied nor answered, as one lost on its way. */
        void dropNextRenewal(long leaseMillis) {
            dropLease = leaseMillis;
        }

        /**
         * The next renewal setting {@code leaseMillis} reaches the store only once the returned gate is opened, as one
         * held up on the network.
         */
        Gate holdNextRenewal(long leaseMillis) {
            Gate next = new Gate(leaseMillis);
            gate.set(next);
            return next;
        }

        /**
         * The next renewal setting {@code leaseMillis} is applied, but answered with {@code answer} once the test
         * completes it.
         *
         * @return counted down when that renewal reached the store
         */
        CountDownLatch holdAnswerOfRenewal(long leaseMillis, CompletableFuture<Boolean> answer) {
            Gate next = new Gate(leaseMillis);
            answerTo.set(answer);
            heldAnswerTo.set(next);
            return next.called;
        }

        CountDownLatch holdNextRenewalAnswer(CompletableFuture<Boolean> answer) {
            CountDownLatch latch = new CountDownLatch(1);
            heldSent.set(latch);
            heldAnswer.set(answer);
            return latch;
        }

        /**
         * The renewal's answer as the test wants it: the store's, none at all (applied or not), one the test gives
         * later, or the store's once the test let the renewal reach it.
         */
        Uni<Boolean> answer(long leaseMillis, Supplier<Uni<Boolean>> applied) {
            if (dropLease == leaseMillis) {
                dropLease = -1;
                return Uni.createFrom().nothing();
            }
            Gate next = gate.get();
            if (next != null && next.leaseMillis == leaseMillis && gate.compareAndSet(next, null)) {
                next.called.countDown();
                return Uni.createFrom().completionStage(next.opened).onItem().transformToUni(ignored -> applied.get());
            }
            Uni<Boolean> renewal = applied.get();
            Gate answered = heldAnswerTo.get();
            if (answered != null && answered.leaseMillis == leaseMillis && heldAnswerTo.compareAndSet(answered, null)) {
                answered.called.countDown();
                CompletableFuture<Boolean> later = answerTo.get();
                return renewal.onItem().transformToUni(ignored -> Uni.createFrom().completionStage(later));
            }
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
     * Records what it is sent, in the order it is sent (the in-memory store applies a command when it is called, or a
     * held renewal when its gate opens), and lets {@link Commands} fault renewals.
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
            return commands.answer(leaseMillis, () -> delegate.renew(key, owner, leaseMillis));
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
