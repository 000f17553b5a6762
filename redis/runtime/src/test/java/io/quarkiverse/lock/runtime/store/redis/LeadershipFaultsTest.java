package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.leadership.LeadershipSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.StoreLockAdmin;
import io.quarkiverse.lock.tck.LeadershipContract;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

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
     * that takes long to stop (closing a queue consumer, a connection) must not hold it up: here the store stops
     * answering, group x's term ends first and its work takes 2.5 s to stop; group y's work is told to stop as y's
     * term ends all the same, at its own deadline, well before the lease of y can end in the store.
     */
    @Test
    void guardedWorkIsToldToStopAtItsDeadlineWhileAnotherGroupsWorkIsSlowToStop() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        DefaultLeadership leadership = leadership(registry, Map.of(
                "x", new LeadershipSettings(Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(100)),
                "y", new LeadershipSettings(LEASE, RENEW, MARGIN)));
        LeadershipGroup x = leadership.group("x");
        LeadershipGroup y = leadership.group("y");
        x.join();
        y.join();
        eventually("x and y led", () -> x.isLeader() && y.isLeader(), Duration.ofSeconds(5));
        AtomicLong xStopping = new AtomicLong();
        x.whileLeading(Uni.createFrom().nothing().onCancellation().invoke(() -> {
            xStopping.set(System.nanoTime());
            Pause.sleep(2_500);
        })).subscribe().with(item -> {
        }, failure -> {
        });
        AtomicLong yStopped = new AtomicLong();
        y.whileLeadingMany(Multi.createFrom().ticks().every(Duration.ofMillis(10)))
                .onTermination().invoke(() -> yStopped.set(System.nanoTime()))
                .subscribe().with(tick -> {
                }, failure -> {
                });

        long yOver;
        redis.server().pause();
        try {
            eventually("x's work stopping", () -> xStopping.get() != 0, Duration.ofSeconds(2));
            eventually("y's term over", () -> !y.isLeader(), LEASE);
            yOver = System.nanoTime();
            eventually("y's work stopped", () -> yStopped.get() != 0, Duration.ofSeconds(5));
        } finally {
            redis.server().resume();
        }
        assertThat(Duration.ofNanos(yStopped.get() - yOver))
                .as("from the end of y's term to its work stopping, while x's work is stopping")
                .isLessThan(Duration.ofMillis(150));
    }

    @Test
    void aUniWorkRunningAtSubscriptionFailsWithNotLeaderWhenItsTermEndsWhileItRuns() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "uni").group("uni");
        group.join();
        eventually("elected", group::isLeader, Duration.ofSeconds(5));
        long term = group.term().getAsLong();

        redis.server().pause();
        UniAssertSubscriber<String> outcome;
        try {
            Uni<String> work = Uni.createFrom().item(() -> {
                eventually("the term over", () -> !group.isLeader(), Duration.ofSeconds(5));
                Pause.sleep(100);
                return "computed under term " + term + ", delivered after it ended";
            });
            outcome = group.whileLeading(work).subscribe().withSubscriber(UniAssertSubscriber.create());
        } finally {
            redis.server().resume();
        }
        assertThat(outcome.awaitFailure(Duration.ofSeconds(5)).getFailure())
                .as("whileLeading's outcome (item: %s)", outcome.getItem()).isInstanceOf(NotLeaderException.class);
    }

    /**
     * A work that emits at subscription (an iterable, a stream, a generator) is cancelled when its term ends, at its
     * next item at the latest: here it would go on producing items for two seconds.
     */
    @Test
    void aMultiWorkEmittingAtSubscriptionIsCancelledWhenItsTermEnds() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "multi").group("multi");
        group.join();
        eventually("elected", group::isLeader, Duration.ofSeconds(5));
        List<Integer> producedWhileNotLeading = new CopyOnWriteArrayList<>();

        redis.server().pause();
        AssertSubscriber<Integer> outcome;
        try {
            Multi<Integer> work = Multi.createFrom().items(() -> Stream.iterate(0, i -> i < 40, i -> i + 1).peek(i -> {
                Pause.sleep(50); // a blocking read of the next order, say
                if (!group.isLeader()) {
                    producedWhileNotLeading.add(i);
                }
            }));
            outcome = group.whileLeadingMany(work).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        } finally {
            redis.server().resume();
        }
        outcome.awaitFailure(Duration.ofSeconds(5));
        assertThat(outcome.getFailure()).isInstanceOf(NotLeaderException.class);
        assertThat(producedWhileNotLeading).as("items the guarded work produced after its term ended (of %d)",
                outcome.getItems().size()).hasSizeLessThanOrEqualTo(1);
    }

    /**
     * The changes of a group come in the order of its terms: a term's election before its end, even when the term ends
     * as soon as it is visible. One instance yields as soon as it is elected, over and over, for up to 2 s.
     */
    @Test
    void theEndOfATermIsNeverDeliveredBeforeItsElection() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "order",
                new LeadershipSettings(LEASE, Duration.ofMillis(5), MARGIN)).group("order");
        List<LeadershipChange> changes = new CopyOnWriteArrayList<>();
        group.changes().subscribe().with(changes::add);
        group.join();
        int terms = 0;
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() - until < 0 && firstInversion(changes) == null) {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!group.isLeader()) {
                if (System.nanoTime() - deadline > 0) {
                    fail("not elected again within 5 s");
                }
                Thread.onSpinWait();
            }
            await(group.yieldLeadership());
            terms++;
        }
        int yielded = terms;
        eventually("every change delivered", () -> changes.size() >= 2 * yielded - 1, Duration.ofSeconds(5));
        assertThat(firstInversion(changes)).as("a term's end delivered before its election, of %d terms", terms)
                .isNull();
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

    /**
     * A store that hangs (SIGSTOP) answers nothing: the renewal on its way would fail only at the operation timeout
     * (5 s), after the term's deadline. The term ends as the store being unreachable, not as a lost lease; once the
     * store answers again, the instance leads again within lease + renew interval, in a higher term.
     */
    @Test
    void aLeaderCutOffByAHungStoreIsToldTheStoreIsUnreachable() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "hung").group("hung");
        List<LeadershipChange> changes = new CopyOnWriteArrayList<>();
        group.changes().subscribe().with(changes::add);
        group.join();
        eventually("elected", group::isLeader, Duration.ofSeconds(5));
        long term = group.term().getAsLong();

        redis.server().pause();
        long resumed;
        try {
            eventually("the belief over", () -> !group.isLeader(), LEASE.minus(MARGIN).plusMillis(100));
            Pause.sleep(1_000);
        } finally {
            redis.server().resume();
            resumed = System.nanoTime();
        }
        eventually("elected again once the store answers", group::isLeader, LEASE.plus(RENEW).plusSeconds(5));
        long reelected = millisSince(resumed);
        assertThat(group.term().getAsLong()).isGreaterThan(term);
        assertThat(changes).as("why the term ended (changes: %s)", changes).filteredOn(LeadershipEnded.class::isInstance)
                .first()
                .extracting(change -> ((LeadershipEnded) change).cause())
                .isEqualTo(LeadershipEnded.Cause.STORE_UNREACHABLE);
        assertThat(Duration.ofMillis(reelected)).as("elected again after the store answered")
                .isLessThanOrEqualTo(LEASE.plus(RENEW));
    }

    /**
     * The leader's connection dies silently (a NAT or firewall drops its state; new connections get through): the
     * renewal on its way, and the release of the term, would fail only at the operation timeout (5 s). The store is
     * reachable all along, so the instance leads again within lease + renew interval, on a new connection.
     */
    @Test
    void aLeaderWhoseConnectionDiesLeadsAgainWithinLeasePlusRenewIntervalOnANewOne() {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "dead").group("dead");
        group.join();
        eventually("elected", group::isLeader, Duration.ofSeconds(5));
        long term = group.term().getAsLong();

        proxy.swallow(true);
        long swallowed = System.nanoTime();
        eventually("the belief over", () -> !group.isLeader(), LEASE.minus(MARGIN).plusMillis(100));
        long ended = millisSince(swallowed);
        eventually("elected again", group::isLeader, Duration.ofSeconds(10));
        long again = millisSince(swallowed);
        assertThat(group.term().getAsLong()).isGreaterThan(term);
        assertThat(Duration.ofMillis(again)).as("a leader again after the connection died (its term ended after %d ms)",
                ended).isLessThanOrEqualTo(LEASE.plus(RENEW));
    }

    /**
     * Leaving while the election's confirming renewal is on its way (the store granted the lock; its replies are slow
     * here, 400 ms): {@code leave()} completes only once the lock is free, so another instance can be elected at once.
     */
    @Test
    void leavingDuringTheConfirmingRenewalCompletesOnlyOnceTheLockIsFree() {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        DefaultLockRegistry other = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "confirm",
                new LeadershipSettings(Duration.ofSeconds(3), RENEW, MARGIN)).group("confirm");
        AtomicBoolean confirming = slowConfirmingRenewal(proxy);
        group.join();
        eventually("the confirming renewal on its way", confirming::get, Duration.ofSeconds(5));
        assertThat(group.isLeader()).as("not elected yet").isFalse();

        await(group.leave());

        assertThat(await(other.obtain("leadership:confirm").acquireOnce())).as("the lock free once leave() completed")
                .isTrue();
    }

    /**
     * The application stops ({@code DefaultLeadership.close()}) while the confirming renewal is on its way: the lock
     * is free once close() returned, so another instance is elected at once.
     */
    @Test
    void closingDuringTheConfirmingRenewalLeavesTheLockFree() {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        DefaultLockRegistry other = redis.registry(redis.store(), Duration.ofSeconds(5));
        DefaultLeadership leadership = leadership(registry, "closing",
                new LeadershipSettings(Duration.ofSeconds(3), RENEW, MARGIN));
        AtomicBoolean confirming = slowConfirmingRenewal(proxy);
        leadership.group("closing").join();
        eventually("the confirming renewal on its way", confirming::get, Duration.ofSeconds(5));

        leadership.close();

        assertThat(await(other.obtain("leadership:closing").acquireOnce())).as("the lock free once close() returned")
                .isTrue();
    }

    /**
     * The store is killed under the leader and started again, empty, on the same port: the term ends with
     * STORE_UNREACHABLE, and the instance leads again, in a higher term, within lease + renew interval of the store's
     * return.
     */
    @Test
    void aLeaderWhoseStoreIsKilledAndRestartedEmptyLeadsAgainInAHigherTerm() {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipGroup group = leadership(registry, "killed").group("killed");
        List<LeadershipChange> changes = new CopyOnWriteArrayList<>();
        group.changes().subscribe().with(changes::add);
        group.join();
        eventually("elected", group::isLeader, Duration.ofSeconds(5));
        long term = group.term().getAsLong();

        redis.server().kill();
        eventually("the belief over", () -> !group.isLeader(), LEASE.minus(MARGIN).plusMillis(100));
        Pause.sleep(1_000);
        RedisServer restarted = redis.closeAfterEach(RedisServer.start(redis.server().port()));
        long back = System.nanoTime();
        eventually("elected again", group::isLeader, Duration.ofSeconds(10));
        long again = millisSince(back);
        assertThat(restarted.isRunning()).isTrue();
        assertThat(group.term().getAsLong()).isGreaterThan(term);
        assertThat(changes).as("why the term ended (changes: %s)", changes).filteredOn(LeadershipEnded.class::isInstance)
                .first().extracting(change -> ((LeadershipEnded) change).cause())
                .isEqualTo(LeadershipEnded.Cause.STORE_UNREACHABLE);
        assertThat(Duration.ofMillis(again)).as("elected again after the store came back")
                .isLessThanOrEqualTo(LEASE.plus(RENEW));
    }

    /**
     * Joining and leaving quickly, at random points of the election (acquisition, confirming renewal, term), on one
     * instance while another stays joined, for 4 s: never two beliefs at once; once the first left for good, the second
     * leads within lease + renew interval, and once both left the lock is free (nothing stranded).
     */
    @Test
    void joiningAndLeavingQuicklyLeavesNothingHeldAndNeverTwoLeaders() {
        DefaultLockRegistry first = redis.registry(redis.store(), Duration.ofSeconds(5));
        DefaultLockRegistry second = redis.registry(redis.store(), Duration.ofSeconds(5));
        LeadershipSettings settings = new LeadershipSettings(LEASE, Duration.ofMillis(20), MARGIN);
        LeadershipGroup a = leadership(first, "churn", settings).group("churn");
        LeadershipGroup b = leadership(second, "churn", settings).group("churn");
        b.join();
        Random random = new Random(30);
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        int cycles = 0;
        while (System.nanoTime() - until < 0) {
            a.join();
            long stop = System.nanoTime() + random.nextInt(15_000_000);
            while (System.nanoTime() - stop < 0) {
                LeadershipContract.assertNoTwoLeaders(List.of(a, b));
            }
            if (random.nextBoolean()) {
                await(a.yieldLeadership());
            }
            await(a.leave());
            assertThat(a.isLeader()).as("leading after leave(), cycle %d", cycles).isFalse();
            cycles++;
        }
        eventually("b leads alone, after " + cycles + " cycles of a", b::isLeader, LEASE.plus(RENEW).plusMillis(200));
        await(b.leave());
        assertThat(await(first.obtain("leadership:churn").acquireOnce())).as("the lock free once everybody left")
                .isTrue();
    }

    /**
     * Chaos on three instances, each through a fault proxy of its own, for 10 s: random yields, replies delayed around
     * the lease, dead and cut connections, and pauses of Redis. A thread watches all along that no two instances
     * believe they lead at once, and that terms, as first seen, strictly increase; once the faults are over, there is
     * a leader again.
     */
    @Test
    void chaosNeverMakesTwoLeadersNorLowerTerms() throws Exception {
        List<FaultProxy> proxies = new ArrayList<>();
        List<LeadershipGroup> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            FaultProxy proxy = redis.faultProxy();
            proxies.add(proxy);
            DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
            LeadershipGroup member = leadership(registry, "chaos").group("chaos");
            member.join();
            members.add(member);
        }
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicInteger termsSeen = new AtomicInteger();
        Thread watcher = new Thread(() -> {
            long highest = 0;
            while (watching.get() && violation.get() == null) {
                try {
                    LeadershipContract.assertNoTwoLeaders(members);
                } catch (AssertionError e) {
                    violation.compareAndSet(null, e.getMessage());
                }
                for (int i = 0; i < members.size(); i++) {
                    OptionalLong term = members.get(i).term();
                    if (term.isPresent() && term.getAsLong() != highest) {
                        if (term.getAsLong() < highest) {
                            violation.compareAndSet(null, "term " + term.getAsLong() + " of instance " + i
                                    + " seen after term " + highest);
                        } else {
                            highest = term.getAsLong();
                            termsSeen.incrementAndGet();
                        }
                    }
                }
                Thread.onSpinWait();
            }
        }, "overlap-watcher");
        watcher.setDaemon(true);
        watcher.start();
        Random random = new Random(Long.getLong("chaos.seed", 3030));
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        try {
            while (System.nanoTime() - until < 0 && violation.get() == null) {
                FaultProxy proxy = proxies.get(random.nextInt(3));
                switch (random.nextInt(6)) {
                    case 0 -> members.forEach(member -> member.yieldLeadership().subscribe().with(ignored -> {
                    }, ignored -> {
                    }));
                    case 1 -> {
                        int millis = 300 + random.nextInt(600);
                        proxy.rule(exchange -> Fault.delay(Duration.ofMillis(millis)));
                        Pause.sleep(1_500);
                        proxy.clearRules();
                    }
                    case 2 -> {
                        proxy.swallow(true);
                        Pause.sleep(random.nextInt(1_500));
                        proxy.swallow(false);
                    }
                    case 3 -> proxy.cutAll();
                    case 4 -> {
                        redis.server().pause();
                        try {
                            Pause.sleep(200 + random.nextInt(1_300));
                        } finally {
                            redis.server().resume();
                        }
                    }
                    default -> Pause.sleep(random.nextInt(500));
                }
                Pause.sleep(random.nextInt(300));
            }
        } finally {
            watching.set(false);
            watcher.join(5_000);
            proxies.forEach(FaultProxy::clearRules);
        }
        assertThat(violation.get()).as("after %d terms", termsSeen.get()).isNull();
        eventually("a leader once the faults are over", () -> members.stream().anyMatch(LeadershipGroup::isLeader),
                Duration.ofSeconds(10));
    }

    /** @return the first end of a term that came on the stream before its election, or null */
    private static String firstInversion(List<LeadershipChange> changes) {
        List<Long> elected = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            LeadershipChange change = changes.get(i);
            if (change instanceof LeaderElected) {
                elected.add(change.term());
            } else if (!elected.contains(change.term())) {
                return change + " at " + i + ", before " + changes.subList(i, Math.min(i + 2, changes.size()));
            }
        }
        return null;
    }

    /**
     * Delays by 400 ms the replies to renewals (the only script on one key), and so every reply after them on the
     * connection.
     *
     * @return set once the first renewal, the election's confirming one, reached Redis: the grant had reached the
     *         instance before
     */
    private static AtomicBoolean slowConfirmingRenewal(FaultProxy proxy) {
        AtomicBoolean confirming = new AtomicBoolean();
        proxy.rule(exchange -> {
            if (exchange.request() != null && exchange.request().matches("(?i)eval(sha)? \\S+ 1 .*")) {
                confirming.set(true);
                return Fault.delay(Duration.ofMillis(400));
            }
            return Fault.pass();
        });
        return confirming;
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
