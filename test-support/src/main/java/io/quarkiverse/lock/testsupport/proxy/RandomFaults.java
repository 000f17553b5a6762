package io.quarkiverse.lock.testsupport.proxy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Random faults on the connections of several instances of a store, one {@link FaultProxy} per instance, for the
 * randomized fault harness: a low rate of delayed replies and cut connections (and of delayed pushes and dropped
 * answers, as the store's {@link FaultMix} allows) all the time, and episodes on one instance at a time: a storm of
 * delays and cuts, a swallowed (silently dead) connection for a while, requests held in the network and delivered
 * late, after their clients gave up (retransmitted once a partition heals), every connection cut at once, lagging
 * pushes, or a burst of dropped answers. Requests still held when the faults stop are delivered then. The episodes are drawn
 * from the seed on one thread; which reply a fault hits depends
 * on thread timing.
 */
public final class RandomFaults implements AutoCloseable {

    private static final long PERIOD_MILLIS = 150;

    private final List<FaultProxy> proxies;
    private final FaultMix mix;
    private final RandomRule[] rules;
    private final long[] busyUntil;
    private final BiConsumer<Integer, String> timeline;
    private final Random random;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fault-schedule");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong swallows = new AtomicLong();
    private final AtomicLong holds = new AtomicLong();
    private final AtomicLong heldRequests = new AtomicLong();
    private final AtomicLong cutAlls = new AtomicLong();
    private final AtomicLong storms = new AtomicLong();
    private final AtomicLong pushLags = new AtomicLong();
    private final AtomicLong dropBursts = new AtomicLong();
    private volatile boolean stopped;

    private RandomFaults(List<FaultProxy> proxies, FaultMix mix, long seed, BiConsumer<Integer, String> timeline) {
        this.proxies = List.copyOf(proxies);
        this.mix = mix;
        this.timeline = timeline;
        this.random = new Random(seed);
        this.rules = new RandomRule[proxies.size()];
        this.busyUntil = new long[proxies.size()];
        for (int i = 0; i < proxies.size(); i++) {
            rules[i] = new RandomRule(i, new Random(seed * 31 + i), mix, timeline);
            proxies.get(i).rule(rules[i]);
        }
    }

    /**
     * Adds a rule to each proxy and starts the episodes.
     *
     * @param proxies one proxy per instance, in the instances' order
     * @param mix which faults the store's protocol and client survive
     * @param seed the seed of every draw
     * @param timeline told of each fault: the instance it hit, and what was done
     * @return the running faults, until {@link #close()}
     * @throws IllegalArgumentException if there is no proxy, or {@code mix} or {@code timeline} is {@code null}
     */
    public static RandomFaults start(List<FaultProxy> proxies, FaultMix mix, long seed,
            BiConsumer<Integer, String> timeline) {
        if (proxies == null || proxies.isEmpty() || mix == null || timeline == null) {
            throw new IllegalArgumentException("Random faults need at least one proxy, a fault mix and a timeline");
        }
        RandomFaults faults = new RandomFaults(proxies, mix, seed, timeline);
        faults.scheduler.scheduleWithFixedDelay(faults::maybeStartEpisode, PERIOD_MILLIS, PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
        return faults;
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
        boolean drops = mix.drops() != FaultMix.Drops.NONE;
        if (kind < 35 || kind >= 65 && !mix.pushes() && !drops) {
            storms.incrementAndGet();
            timeline.accept(instance, "storm of delays and cuts for " + millis + " ms begins");
            rule.set(0.15, 1500, 0.01, rule.pushDelayRate, rule.maxPushDelayMillis, rule.dropRate);
            calmLater(instance, millis, "storm ends");
        } else if (kind < 50) {
            swallows.incrementAndGet();
            timeline.accept(instance, "connections swallowed (silently dead) for " + millis + " ms");
            proxy.swallow(true);
            later(millis, () -> {
                proxy.swallow(false);
                timeline.accept(instance, "swallowed connections closed");
            });
        } else if (kind < 58) {
            holds.incrementAndGet();
            Random holding = new Random(random.nextLong());
            timeline.accept(instance, "requests held in the network for " + millis + " ms");
            proxy.holdRequests(request -> {
                synchronized (holding) {
                    return holding.nextInt(4) == 0;
                }
            });
            later(millis, () -> {
                int held = proxy.heldRequests();
                heldRequests.addAndGet(held);
                boolean answered = proxy.deliverHeld();
                timeline.accept(instance, held + " held requests delivered"
                        + (answered ? "" : ", some to sessions gone"));
            });
        } else if (kind < 65) {
            cutAlls.incrementAndGet();
            timeline.accept(instance, "every connection cut");
            proxy.cutAll();
        } else if (mix.pushes() && (!drops || kind < 82)) {
            pushLags.incrementAndGet();
            timeline.accept(instance, "pushes lag up to 2000 ms for " + millis + " ms");
            rule.set(rule.delayRate, rule.maxDelayMillis, rule.cutRate, 0.6, 2000, rule.dropRate);
            calmLater(instance, millis, "push lag ends");
        } else {
            dropBursts.incrementAndGet();
            timeline.accept(instance, "answers dropped at 5% for " + millis + " ms");
            rule.set(rule.delayRate, rule.maxDelayMillis, rule.cutRate, rule.pushDelayRate, rule.maxPushDelayMillis,
                    0.05);
            calmLater(instance, millis, "drop burst ends");
        }
    }

    private void calmLater(int instance, long millis, String note) {
        later(millis, () -> {
            rules[instance].calm();
            timeline.accept(instance, note);
        });
    }

    private void later(long millis, Runnable action) {
        scheduler.schedule(() -> {
            if (!stopped) {
                action.run();
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * @return how many faults of each kind were injected so far, by the proxies and by the episodes, with readable
     *         names
     */
    public Map<String, Long> counts() {
        long drops = 0;
        long delays = 0;
        long cuts = 0;
        long swallowedBytes = 0;
        for (FaultProxy proxy : proxies) {
            FaultCounts counts = proxy.counts();
            drops += counts.drops();
            delays += counts.delays();
            cuts += counts.cuts();
            swallowedBytes += counts.swallowedBytes();
        }
        long pushDelays = 0;
        long droppedAnswers = 0;
        for (RandomRule rule : rules) {
            pushDelays += rule.pushDelays.get();
            droppedAnswers += rule.droppedAnswers.get();
        }
        Map<String, Long> counts = new TreeMap<>();
        counts.put(mix.pushes() ? "delayed replies (pushes included)" : "delayed replies", delays);
        counts.put("cut connections", cuts);
        counts.put("swallowed bytes", swallowedBytes);
        counts.put("swallow episodes", swallows.get());
        counts.put("hold episodes", holds.get());
        counts.put("requests held, then delivered", heldRequests.get());
        counts.put("cut-all episodes", cutAlls.get());
        counts.put("delay-and-cut storms", storms.get());
        if (mix.pushes()) {
            counts.put("delayed pushes", pushDelays);
            counts.put("push lag episodes", pushLags.get());
        }
        if (mix.drops() != FaultMix.Drops.NONE) {
            counts.put("dropped answers", droppedAnswers);
            counts.put("dropped messages", drops);
            counts.put("drop bursts", dropBursts.get());
        }
        return counts;
    }

    /**
     * Stops every fault: no more episodes, every rule off (an answer being dropped is dropped to its end), swallowed
     * connections closed, held requests delivered.
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
            proxies.get(i).swallow(false);
            heldRequests.addAndGet(proxies.get(i).heldRequests());
            proxies.get(i).deliverHeld();
        }
    }

    /** One instance's rule: faults at the rates set, drawn from its own seeded randomness. */
    private static final class RandomRule implements FaultRule {

        private static final double BASE_DELAY_RATE = 0.01;
        private static final long BASE_MAX_DELAY_MILLIS = 300;
        private static final double BASE_CUT_RATE = 0.0005;
        private static final double BASE_PUSH_DELAY_RATE = 0.05;
        private static final long BASE_MAX_PUSH_DELAY_MILLIS = 500;
        private static final double BASE_DROP_RATE = 0.001;

        private final int instance;
        private final Random random;
        private final FaultMix mix;
        private final BiConsumer<Integer, String> timeline;
        private final Set<Integer> droppingAnswer = ConcurrentHashMap.newKeySet();
        final AtomicLong pushDelays = new AtomicLong();
        final AtomicLong droppedAnswers = new AtomicLong();
        volatile boolean on = true;
        volatile double delayRate;
        volatile long maxDelayMillis;
        volatile double cutRate;
        volatile double pushDelayRate;
        volatile long maxPushDelayMillis;
        volatile double dropRate;

        RandomRule(int instance, Random random, FaultMix mix, BiConsumer<Integer, String> timeline) {
            this.instance = instance;
            this.random = random;
            this.mix = mix;
            this.timeline = timeline;
            calm();
        }

        void calm() {
            set(BASE_DELAY_RATE, BASE_MAX_DELAY_MILLIS, BASE_CUT_RATE, BASE_PUSH_DELAY_RATE,
                    BASE_MAX_PUSH_DELAY_MILLIS, mix.drops() == FaultMix.Drops.NONE ? 0 : BASE_DROP_RATE);
        }

        void set(double delayRate, long maxDelayMillis, double cutRate, double pushDelayRate,
                long maxPushDelayMillis, double dropRate) {
            this.delayRate = delayRate;
            this.maxDelayMillis = maxDelayMillis;
            this.cutRate = cutRate;
            this.pushDelayRate = pushDelayRate;
            this.maxPushDelayMillis = maxPushDelayMillis;
            this.dropRate = dropRate;
        }

        void off() {
            on = false;
        }

        @Override
        public Fault decide(Exchange exchange) {
            if (!exchange.push() && droppingAnswer.contains(exchange.connection())) {
                if (exchange.endsAnswer()) {
                    droppingAnswer.remove(exchange.connection());
                }
                return Fault.drop();
            }
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
                    timeline.accept(instance, "push delayed " + millis + " ms: " + exchange.reply());
                    return Fault.delay(Duration.ofMillis(millis));
                }
                return Fault.pass();
            }
            if (draw < cutRate) {
                timeline.accept(instance, "connection cut at the reply to " + abbreviate(exchange.request()));
                return Fault.cut();
            }
            if (draw < cutRate + delayRate) {
                long millis = 1 + (long) (share * maxDelayMillis);
                timeline.accept(instance, "reply delayed " + millis + " ms: " + abbreviate(exchange.request()));
                return Fault.delay(Duration.ofMillis(millis));
            }
            if (draw < cutRate + delayRate + dropRate && mix.droppable().test(exchange)) {
                return drop(exchange);
            }
            return Fault.pass();
        }

        private Fault drop(Exchange exchange) {
            droppedAnswers.incrementAndGet();
            timeline.accept(instance, "answer dropped on an open connection: " + abbreviate(exchange.request()));
            if (mix.drops() == FaultMix.Drops.ANSWER && !exchange.endsAnswer()) {
                droppingAnswer.add(exchange.connection());
            }
            return Fault.drop();
        }

        private static String abbreviate(String request) {
            return request == null || request.length() <= 160 ? request : request.substring(0, 160) + "...";
        }
    }
}
