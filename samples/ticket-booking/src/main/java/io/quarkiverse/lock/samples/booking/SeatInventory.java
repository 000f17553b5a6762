package io.quarkiverse.lock.samples.booking;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;

/**
 * Seats of one show, booked the way a service often does it: read the seat, then write the booking a moment later.
 * Two customers who read a free seat at the same time both book it: a double booking.
 */
class SeatInventory {

    private static final Duration STORE_LATENCY = Duration.ofMillis(2);

    private final Map<Integer, String> bookings = new ConcurrentHashMap<>();
    private final AtomicInteger doubleBookings = new AtomicInteger();
    private final AtomicInteger sold = new AtomicInteger();

    /**
     * Books a seat if it is free.
     *
     * @return {@code true} if the customer got the seat
     */
    Uni<Boolean> book(int seat, String customer) {
        return Uni.createFrom().item(() -> bookings.get(seat))
                .onItem().delayIt().by(STORE_LATENCY)
                .map(bookedBy -> {
                    if (bookedBy != null) {
                        return false;
                    }
                    String overwritten = bookings.put(seat, customer);
                    if (overwritten != null) {
                        doubleBookings.incrementAndGet();
                    }
                    sold.incrementAndGet();
                    return true;
                });
    }

    int sold() {
        return sold.get();
    }

    int doubleBookings() {
        return doubleBookings.get();
    }

    int seatsTaken() {
        return bookings.size();
    }
}
