package io.quarkiverse.lock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockFailureException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * One process of the reliability harness, in one of these roles; in each, every acquisition and release also goes to a
 * history ({@link OperationLog}), with its times on the clock of the Redis server the default client names:
 * {@code {<log>}:history} for {@code contend}, {@code {<key>}:history} for the others.
 * <ul>
 * <li>{@code contend <keys> <sections> <workers> <log> [ride-out] [until-stopped]}: workers run critical sections on
 * a few keys; each section appends {@code S|key|token|owner} and then {@code E|key|token|owner} to the Redis list
 * {@code log}, which orders the sections of every process in one sequence for the checker; with {@code ride-out}, a
 * section that fails with a store failure ({@code LockFailureException}: the store is down) is tried again after a
 * pause, one whose release finds its hold lost ({@code LockExpiredException}, as after a failover that lost the lock)
 * is counted, and the process prints {@code FAILED <count>} and {@code LOST <count>} before {@code DONE <sections>};
 * with {@code until-stopped}, the workers go on after their share of {@code sections} until the key
 * {@code {<log>}:stop} exists;</li>
 * <li>{@code hold <key> <leaseMillis>}: takes the lock, prints {@code HOLDING <token> <asked> <granted>} (epoch
 * milliseconds before and after the acquisition: the lease began in between), and sleeps until it is killed;</li>
 * <li>{@code await <key> <leaseMillis>}: prints {@code WAITING}, waits up to 30 s for the lock, prints
 * {@code ACQUIRED <token> <epochMillis>}, releases it;</li>
 * <li>{@code count <key> <counter> <sections> <fenced>}: runs {@code sections} sections one after another, each an
 * increment of the Redis string {@code counter} done as a slow client does it ({@link FencedCounter}); prints
 * {@code SECTION <token> OK} or {@code SECTION <token> LOST} (the section ended with {@code LockExpiredException}),
 * then {@code DONE};</li>
 * <li>{@code lead <file>}: takes part in leadership group {@code harness} and logs to {@code file} when it believes
 * it leads ({@link LeaderLog}), until it is killed or stopped;</li>
 * <li>{@code schedule}: prints {@code SCHEDULING <epochMillis>} and runs until it is killed, while the scheduled jobs
 * of {@link ScheduledReport} that the configuration turns on run.</li>
 * </ul>
 */
@QuarkusMain
public class ContenderMain implements QuarkusApplication {

    /** How long a section that met a store failure waits before it tries again, in a {@code ride-out} run. */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);
    /** The bound of each step that only reads the clock of the section log's server or writes the history. */
    private static final Duration STEP = Duration.ofSeconds(10);

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    FencedCounter counter;

    @Inject
    OperationLog history;

    @Inject
    LeaderLog leaders;

    @Override
    public int run(String... args) throws Exception {
        switch (args[0]) {
            case "contend":
                return contend(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                        args[4], List.of(args).subList(5, args.length));
            case "hold":
                return hold(args[1], Duration.ofMillis(Long.parseLong(args[2])));
            case "await":
                return await(args[1], Duration.ofMillis(Long.parseLong(args[2])));
            case "count":
                return count(args[1], args[2], Integer.parseInt(args[3]), Boolean.parseBoolean(args[4]));
            case "lead":
                leaders.lead(args[1]);
                Quarkus.waitForExit();
                return 0;
            case "schedule":
                System.out.println("SCHEDULING " + System.currentTimeMillis());
                Quarkus.waitForExit();
                return 0;
            default:
                System.err.println("unknown role " + args[0]);
                return 2;
        }
    }

    private int contend(int keys, int sections, int workers, String log, List<String> options) {
        boolean rideOut = options.contains("ride-out");
        boolean untilStopped = options.contains("until-stopped");
        AtomicLong failures = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        AtomicLong ran = new AtomicLong();
        List<Uni<Void>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            Uni<Void> worker = Multi.createFrom().range(0, sections / workers)
                    .onItem().transformToUniAndConcatenate(i -> attempt(keys, log, rideOut, failures, lost, ran))
                    .collect().last().replaceWithVoid();
            if (untilStopped) {
                worker = worker.flatMap(ignored -> Multi.createBy().repeating()
                        .uni(() -> redis.key(String.class).exists("{" + log + "}:stop")
                                .flatMap(stop -> stop ? Uni.createFrom().item(true)
                                        : attempt(keys, log, rideOut, failures, lost, ran).replaceWith(false)))
                        .until(stop -> stop)
                        .collect().last().replaceWithVoid());
            }
            running.add(worker);
        }
        Uni.join().all(running).andFailFast().await().atMost(Duration.ofMinutes(30));
        if (rideOut) {
            System.out.println("FAILED " + failures.get());
            System.out.println("LOST " + lost.get());
        }
        System.out.println("DONE " + ran.get());
        return 0;
    }

    /**
     * One section on a random key; with {@code rideOut}, tried again after a store failure until it ran, and counted
     * in {@code lost} when its hold was found lost at its release.
     */
    private Uni<Void> attempt(int keys, String log, boolean rideOut, AtomicLong failures, AtomicLong lost,
            AtomicLong ran) {
        Uni<Void> section = Uni.createFrom().deferred(() -> section(
                "key-" + ThreadLocalRandom.current().nextInt(keys), log, rideOut ? lost : null));
        if (rideOut) {
            section = section.onFailure(LockFailureException.class).invoke(failures::incrementAndGet)
                    .onFailure(LockFailureException.class).retry().withBackOff(RETRY_PAUSE, RETRY_PAUSE)
                    .indefinitely();
        }
        return section.invoke(ran::incrementAndGet);
    }

    /**
     * One section, logged, and its acquisition and release added to the history. When the section ran but its release
     * failed, the history has the release as failed ({@code LockExpiredException}: the store no longer had the hold)
     * or of unknown outcome (a store failure), and the failure is passed on; but a hold found lost is counted in
     * {@code lost} instead when that is given: a lock that a failover lost is an outcome the section is told of.
     */
    private Uni<Void> section(String key, String log, AtomicLong lost) {
        ReactiveDistributedLock lock = locks.obtain(key);
        String owner = owner(lock);
        long[] acquiredAndReleasing = new long[2];
        long[] token = { -1 };
        return history.now().flatMap(invoked -> lock.acquireAndExecute(Duration.ofSeconds(60),
                Uni.createFrom().deferred(() -> {
                    token[0] = lock.fencingToken().getAsLong();
                    String entry = key + "|" + token[0] + "|" + owner;
                    return history.now().invoke(time -> acquiredAndReleasing[0] = time)
                            .flatMap(ignored -> redis.list(String.class).rpush(log, "S|" + entry))
                            .flatMap(ignored -> redis.list(String.class).rpush(log, "E|" + entry))
                            .flatMap(ignored -> history.now()).invoke(time -> acquiredAndReleasing[1] = time);
                })).flatMap(ignored -> history.now())
                .flatMap(released -> record(log, key, owner, invoked, acquiredAndReleasing, token[0], "OK", released))
                .onFailure(failure -> acquiredAndReleasing[1] > 0 && (failure instanceof LockExpiredException
                        || failure instanceof LockFailureException))
                .recoverWithUni(failure -> history.now()
                        .flatMap(released -> record(log, key, owner, invoked, acquiredAndReleasing, token[0],
                                failure instanceof LockExpiredException ? "FAIL" : "UNKNOWN", released))
                        .flatMap(ignored -> {
                            if (lost != null && failure instanceof LockExpiredException) {
                                lost.incrementAndGet();
                                return Uni.createFrom().voidItem();
                            }
                            return Uni.createFrom().failure(failure);
                        })));
    }

    /** Adds a section's acquisition and release to the history, the release with the given outcome. */
    private Uni<Void> record(String log, String key, String owner, long invoked, long[] acquiredAndReleasing,
            long token, String releaseOutcome, long released) {
        return history.append(log,
                OperationLog.line("contend", "ACQUIRE", key, owner, expireAfterMillis(), invoked,
                        acquiredAndReleasing[0], "OK", token),
                OperationLog.line("contend", "RELEASE", key, owner, 0, acquiredAndReleasing[1], released,
                        releaseOutcome, token));
    }

    /** The handle's name in the history: unique across the processes of a run. */
    private static String owner(ReactiveDistributedLock lock) {
        return System.identityHashCode(lock) + "@" + ProcessHandle.current().pid();
    }

    private long expireAfterMillis() {
        return ConfigProvider.getConfig().getValue("quarkus.lock.expire-after", Duration.class).toMillis();
    }

    private int hold(String key, Duration lease) throws InterruptedException {
        ReactiveDistributedLock lock = locks.obtain(key);
        long invoked = history.now().await().atMost(STEP);
        long asked = System.currentTimeMillis();
        if (!lock.acquire(Duration.ZERO, lease).await().atMost(Duration.ofMinutes(1))) {
            System.out.println("NOT ACQUIRED");
            return 1;
        }
        long granted = System.currentTimeMillis();
        long token = lock.fencingToken().getAsLong();
        history.append(key, OperationLog.line("hold", "ACQUIRE", key, owner(lock), lease.toMillis(), invoked,
                history.now().await().atMost(STEP), "OK", token)).await().atMost(STEP);
        System.out.println("HOLDING " + token + " " + asked + " " + granted);
        Thread.sleep(Duration.ofMinutes(10).toMillis());
        return 0;
    }

    private int count(String key, String counterKey, int sections, boolean fenced) throws Exception {
        ReactiveDistributedLock lock = locks.obtain(key).withLeaseRenewal(true);
        String owner = owner(lock);
        for (int i = 0; i < sections; i++) {
            long[] token = { -1 };
            long[] acquiredAndReleasing = { -1, -1 };
            long invoked = history.now().await().atMost(STEP);
            boolean held;
            try {
                lock.acquireAndExecute(Duration.ofSeconds(30), history.now()
                        .invoke(time -> acquiredAndReleasing[0] = time)
                        .flatMap(ignored -> counter.increment(counterKey, () -> {
                            token[0] = lock.fencingToken().getAsLong();
                            return token[0];
                        }, fenced)).call(ignored -> history.now().invoke(time -> acquiredAndReleasing[1] = time)))
                        .await().atMost(Duration.ofMinutes(1));
                System.out.println("SECTION " + token[0] + " OK");
                held = true;
            } catch (LockExpiredException lost) {
                System.out.println("SECTION " + token[0] + " LOST");
                held = false;
            }
            long completed = history.now().await().atMost(STEP);
            // The release of a lost hold, which fails, is recorded as invoked at the end: the checker then treats the
            // hold as the section saw it, held until it was told, which only the lease's end excuses.
            history.append(key,
                    OperationLog.line("count", "ACQUIRE", key, owner, expireAfterMillis(), invoked,
                            acquiredAndReleasing[0], "OK", token[0]),
                    OperationLog.line("count", "RELEASE", key, owner, 0, held ? acquiredAndReleasing[1] : completed,
                            completed, held ? "OK" : "FAIL", token[0]))
                    .await().atMost(STEP);
            counter.awaitLastWrite();
        }
        System.out.println("DONE");
        return 0;
    }

    private int await(String key, Duration lease) {
        ReactiveDistributedLock lock = locks.obtain(key);
        System.out.println("WAITING " + System.currentTimeMillis());
        long invoked = history.now().await().atMost(STEP);
        if (!lock.acquire(Duration.ofSeconds(30), lease).await().atMost(Duration.ofMinutes(1))) {
            System.out.println("NOT ACQUIRED");
            return 1;
        }
        long acquiredAt = System.currentTimeMillis();
        long acquired = history.now().await().atMost(STEP);
        long token = lock.fencingToken().getAsLong();
        long releasing = history.now().await().atMost(STEP);
        boolean released = lock.release().await().atMost(Duration.ofSeconds(10));
        history.append(key,
                OperationLog.line("await", "ACQUIRE", key, owner(lock), lease.toMillis(), invoked, acquired, "OK",
                        token),
                OperationLog.line("await", "RELEASE", key, owner(lock), 0, releasing,
                        history.now().await().atMost(STEP), released ? "OK" : "FAIL", token))
                .await().atMost(STEP);
        System.out.println("ACQUIRED " + token + " " + acquiredAt);
        return 0;
    }
}
