package io.quarkiverse.lock.testsupport.proxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * The proxies of a randomized fault run, one per instance, and the random faults they inject: what every store's fault
 * fixture needs from the proxies, in one place.
 */
public final class ProxiedFaults implements AutoCloseable {

    private final FaultMix mix;
    private final List<FaultProxy> proxies = new ArrayList<>();
    private RandomFaults faults;

    /**
     * @param mix which faults the store's protocol and client survive
     */
    public ProxiedFaults(FaultMix mix) {
        this.mix = mix;
    }

    /**
     * Adds the next instance's proxy, closed with this.
     *
     * @param proxy the proxy
     * @return the proxy
     */
    public FaultProxy add(FaultProxy proxy) {
        proxies.add(proxy);
        return proxy;
    }

    /**
     * Starts injecting faults at random on every proxy added so far, until {@link #stop()}.
     *
     * @param seed the seed of every draw
     * @param timeline told of each fault: the instance it hit, and what was done
     * @throws IllegalArgumentException if no proxy was added
     */
    public void start(long seed, BiConsumer<Integer, String> timeline) {
        faults = RandomFaults.start(proxies, mix, seed, timeline);
    }

    /** Stops injecting faults, if they were started; see {@link RandomFaults#close()}. */
    public void stop() {
        if (faults != null) {
            faults.close();
        }
    }

    /**
     * @return how many faults of each kind were injected; empty if they were never started
     */
    public Map<String, Long> counts() {
        return faults == null ? Map.of() : faults.counts();
    }

    /** Stops the faults and closes every proxy. */
    @Override
    public void close() {
        stop();
        for (FaultProxy proxy : proxies) {
            proxy.close();
        }
    }

    /**
     * Waits, checking every 50 ms, until the instances have nothing in flight.
     *
     * @param atMost how long to wait
     * @param busy whether any instance still has an operation running or waiting
     * @return {@code true} once none has, {@code false} if some still had one after {@code atMost}
     * @throws InterruptedException if interrupted while waiting
     */
    public static boolean awaitQuiet(Duration atMost, BooleanSupplier busy) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (busy.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
