package io.quarkiverse.lock.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;

/**
 * The blocking view: one instance at a time writes an order's invoice, from a worker thread.
 */
@ApplicationScoped
public class InvoiceFiles {

    /** Where the invoices are written. */
    private static final Path INVOICES = Path.of("invoices");

    // tag::blocking[]
    @Inject
    LockRegistry locks;

    /**
     * @param orderId the order whose invoice to write
     * @param invoice the invoice's text
     * @return the file written
     * @throws IOException if writing failed: thrown unchanged, after the lock was released
     */
    public Path write(String orderId, String invoice) throws IOException {
        return locks.obtainBlocking("invoice-" + orderId)
                .acquireAndExecute(Duration.ofSeconds(5),
                        () -> Files.writeString(INVOICES.resolve(orderId + ".txt"), invoice));
    }
    // end::blocking[]
}
