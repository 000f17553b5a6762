package org.acme;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.smallrye.mutiny.Uni;

/**
 * The first code a user writes after the installation snippet: one payment per order at a time.
 */
@ApplicationScoped
public class Payments {

    @Inject
    LockRegistry locks;

    /**
     * @param orderId the order to pay
     * @param charge the payment, run while the lock is held
     * @return the receipt
     */
    public Uni<String> pay(String orderId, Uni<String> charge) {
        return locks.obtain("order-" + orderId).acquireAndExecute(Duration.ofSeconds(5), charge);
    }
}
