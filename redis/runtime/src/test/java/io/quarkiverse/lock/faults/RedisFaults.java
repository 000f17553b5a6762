package io.quarkiverse.lock.faults;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.tck.faults.FaultTimeline;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.FaultRule;

/**
 * Random faults on the instances' Redis connections: a low rate of delayed replies, cut connections and delayed
 * pub/sub messages all the time, and episodes on one instance at a time: a storm of delays and cuts, a swallowed
 * (silently dead) connection for a while, every connection cut at once, or lagging pub/sub messages. Replies are never
 * dropped: on Redis a lost reply comes with a lost connection. The episodes are drawn from the seed on one thread;
 * which reply a fault hits depends on thread timing.
 */
final class RedisFaults implements AutoCloseable {

    private static final long PERIOD_MILLIS = 150;

    private final List<FaultProxy> proxies;
    private final RandomRule[] rules;
    private final long[] busyUntil;
    private final FaultTimeline timeline;
    private final Random random;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fault-schedule");
        thread.setDaemon(true);
        return thread;
    });
    final AtomicLong swallows = new AtomicLong();
    final AtomicLong cutAlls = new AtomicLong();
    final AtomicLong storms = new AtomicLong();
    final AtomicLong pushLags = new AtomicLong();
    private volatile boolean stopped;

    /**
     * @param proxies one proxy per instance
     * @param seed the seed
     * @param timeline where each fault is noted
     */
    RedisFaults(List<FaultProxy> proxies, long seed, FaultTimeline timeline) {
        this.proxies = proxies;
        this.timeline = timeline;
        this.random = new Random(seed);
        this.rules = new RandomRule[proxies.size()];
        this.busyUntil = new long[proxies.size()];
        for (int i = 0; i < proxies.size(); i++) {
            rules[i] = new RandomRule(i, new Random(seed * 31 + i), timeline);
            proxies.get(i).rule(rules[i]);
        }
    }

    void start() {
        scheduler.scheduleWithFixedDelay(this::maybeStartEpisode, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Called on the scheduler thread only, so the draws follow the seed. */
    private void maybeStartEpisode() {
        if (stopped || random.nextInt(4) != 0) {
            return;
        }
        int instance = random.nextInt(proxies.size());
        long now = System.nanoTime();
        if (now < busyUntil[instance]) {
            return;
        }
        int kind = random.nextInt(100);
        long millis = 300 + random.nextInt(2200);
        busyUntil[instance] = now + Duration.ofMillis(millis + 500).toNanos();
        FaultProxy proxy = proxies.get(instance);
        RandomRule rule = rules[instance];
        if (kind < 35) {
            storms.incrementAndGet();
            timeline.add(instance, "storm of delays and cuts for " + millis + " ms begins");
            rule.set(0.15, 1500, 0.01, rule.pushDelayRate, rule.maxPushDelayMillis);
            later(millis, () -> {
                rule.calm();
                timeline.add(instance, "storm ends");
            });
        } else if (kind < 55) {
            swallows.incrementAndGet();
            timeline.add(instance, "connections swallowed (silently dead) for " + millis + " ms");
            proxy.swallow(true);
            later(millis, () -> {
                proxy.swallow(false);
                timeline.add(instance, "swallowed connections closed");
            });
        } else if (kind < 65) {
            cutAlls.incrementAndGet();
            timeline.add(instance, "every connection cut");
            proxy.cutAll();
        } else {
            pushLags.incrementAndGet();
            timeline.add(instance, "pub/sub messages lag up to 2000 ms for " + millis + " ms");
            rule.set(rule.delayRate, rule.maxDelayMillis, rule.cutRate, 0.6, 2000);
            later(millis, () -> {
                rule.calm();
                timeline.add(instance, "pub/sub lag ends");
            });
        }
    }

    private void later(long millis, Runnable action) {
        scheduler.schedule(() -> {
            if (!stopped) {
                action.run();
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops every fault: no more episodes, every rule off, swallowed connections closed.
     */
    @Override
    public void close() {
        stopped = true;
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < proxies.size(); i++) {
            rules[i].off();
            proxies.get(i).clearRules();
            proxies.get(i).swallow(false);
        }
    }

    /**
     * @return how many pub/sub messages the rules delayed
     */
    long pushDelays() {
        long delays = 0;
        for (RandomRule rule : rules) {
            delays += rule.pushDelays.get();
        }
        return delays;
    }

    /** One instance's rule: faults at the rates set, drawn from its own seeded randomness. */
    private static final class RandomRule implements FaultRule {

        private static final double BASE_DELAY_RATE = 0.01;
        private static final long BASE_MAX_DELAY_MILLIS = 300;
        private static final double BASE_CUT_RATE = 0.0005;
        private static final double BASE_PUSH_DELAY_RATE = 0.05;
        private static final long BASE_MAX_PUSH_DELAY_MILLIS = 500;

        private final int instance;
        private final Random random;
        private final FaultTimeline timeline;
        final AtomicLong pushDelays = new AtomicLong();
        volatile boolean on = true;
        volatile double delayRate;
        volatile long maxDelayMillis;
        volatile double cutRate;
        volatile double pushDelayRate;
        volatile long maxPushDelayMillis;

        RandomRule(int instance, Random random, FaultTimeline timeline) {
            this.instance = instance;
            this.random = random;
            this.timeline = timeline;
            calm();
        }

        void calm() {
            set(BASE_DELAY_RATE, BASE_MAX_DELAY_MILLIS, BASE_CUT_RATE, BASE_PUSH_DELAY_RATE,
                    BASE_MAX_PUSH_DELAY_MILLIS);
        }

        void set(double delayRate, long maxDelayMillis, double cutRate, double pushDelayRate,
                long maxPushDelayMillis) {
            this.delayRate = delayRate;
            this.maxDelayMillis = maxDelayMillis;
            this.cutRate = cutRate;
            this.pushDelayRate = pushDelayRate;
            this.maxPushDelayMillis = maxPushDelayMillis;
        }

        void off() {
            on = false;
        }

        @Override
        public Fault decide(Exchange exchange) {
            if (!on) {
                return Fault.pass();
            }
            double draw;
            double share;
            synchronized (random) {
                draw = random.nextDouble();
                share = random.nextDouble();
            }
            if (exchange.push()) {
                if (draw < pushDelayRate) {
                    long millis = 1 + (long) (share * maxPushDelayMillis);
                    pushDelays.incrementAndGet();
                    timeline.add(instance, "pub/sub message delayed " + millis + " ms: " + exchange.reply());
                    return Fault.delay(Duration.ofMillis(millis));
                }
                return Fault.pass();
            }
            if (draw < cutRate) {
                timeline.add(instance, "connection cut at the reply to " + abbreviate(exchange.request()));
                return Fault.cut();
            }
            if (draw < cutRate + delayRate) {
                long millis = 1 + (long) (share * maxDelayMillis);
                timeline.add(instance, "reply delayed " + millis + " ms: " + abbreviate(exchange.request()));
                return Fault.delay(Duration.ofMillis(millis));
            }
            return Fault.pass();
        }

        private static String abbreviate(String request) {
            return request == null || request.length() <= 160 ? request : request.substring(0, 160) + "...";
        }
    }
}
