package io.quarkiverse.lock.deployment.locked;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the bean of every return type's test records: the overlap of its {@code work} calls, and how many times its
 * methods were invoked (where the test counts them).
 */
class ContractJobs {

    final Overlap overlap = new Overlap();
    final AtomicInteger invocations = new AtomicInteger();

    Overlap overlap() {
        return overlap;
    }

    int invocations() {
        return invocations.get();
    }
}
