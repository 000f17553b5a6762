package io.quarkiverse.lock.samples.booking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import jakarta.inject.Inject;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.mutiny.Uni;

/**
 * Customers race for the seats of a show, first without a lock, then with one lock per seat, and the demo prints how
 * many seats were sold twice each time.
 */
@QuarkusMain
public class TicketBookingDemo implements QuarkusApplication {

    static final int SEATS = 20;
    static final int CUSTOMERS = 200;

    @Inject
    LockRegistry locks;

    @Override
    public int run(String... args) {
        System.out.printf("Quarkus Lock demo: %d customers race for %d seats, %d per seat at once%n",
                CUSTOMERS, SEATS, CUSTOMERS / SEATS);

        Result unlocked = race((inventory, customer) -> inventory.book(seatOf(customer), "customer-" + customer));
        print("without a lock", unlocked);

        Result locked = race((inventory, customer) -> locks.obtain("seat-" + seatOf(customer))
                .acquireAndExecute(Duration.ofSeconds(10), inventory.book(seatOf(customer), "customer-" + customer))
                .onFailure(CannotAcquireLockException.class).recoverWithItem(false));
        print("with a lock per seat", locked);

        boolean correct = locked.doubleBookings == 0 && locked.sold == SEATS;
        System.out.println(correct
                ? "With the lock every seat was sold exactly once."
                : "UNEXPECTED: the lock did not prevent double bookings.");
        return correct ? 0 : 1;
    }

    static int seatOf(int customer) {
        return customer % SEATS;
    }

    static Result race(BiFunction<SeatInventory, Integer, Uni<Boolean>> booking) {
        SeatInventory inventory = new SeatInventory();
        List<Uni<Boolean>> attempts = new ArrayList<>(CUSTOMERS);
        for (int customer = 0; customer < CUSTOMERS; customer++) {
            attempts.add(booking.apply(inventory, customer));
        }
        long start = System.nanoTime();
        Uni.join().all(attempts).andFailFast().await().atMost(Duration.ofMinutes(1));
        return new Result(inventory.sold(), inventory.seatsTaken(), inventory.doubleBookings(),
                Duration.ofNanos(System.nanoTime() - start));
    }

    private static void print(String label, Result result) {
        System.out.printf("  %-22s %3d tickets sold for %d seats: %3d double bookings (%d ms)%n",
                label, result.sold, result.seatsTaken, result.doubleBookings, result.elapsed.toMillis());
    }

    record Result(int sold, int seatsTaken, int doubleBookings, Duration elapsed) {
    }
}
