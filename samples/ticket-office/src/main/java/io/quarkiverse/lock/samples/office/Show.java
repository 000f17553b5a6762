package io.quarkiverse.lock.samples.office;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.redis.datasource.keys.ReactiveKeyCommands;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;

/**
 * The seats of one show, kept in Redis and booked the way a service often does it: read the seat, then write the
 * booking a moment later. Every sale is also counted per seat, so a seat sold twice shows.
 */
final class Show {

    static final int SEATS = 100;
    private static final Duration STORE_LATENCY = Duration.ofMillis(2);

    private final ReactiveHashCommands<String, String, String> seats;
    private final ReactiveHashCommands<String, String, Long> salesPerSeat;
    private final ReactiveValueCommands<String, Long> counters;
    private final ReactiveKeyCommands<String> keys;

    Show(ReactiveRedisDataSource redis) {
        this.seats = redis.hash(String.class);
        this.salesPerSeat = redis.hash(Long.class);
        this.counters = redis.value(Long.class);
        this.keys = redis.key(String.class);
    }

    /**
     * Books a seat if it looks free.
     *
     * @return {@code true} if the customer got it
     */
    Uni<Boolean> book(int seat, String customer, int instance) {
        String field = Integer.toString(seat);
        return seats.hget("office:seats", field)
                .onItem().delayIt().by(STORE_LATENCY)
                .flatMap(bookedBy -> bookedBy != null ? Uni.createFrom().item(false)
                        : seats.hset("office:seats", field, customer)
                                .call(() -> salesPerSeat.hincrby("office:sales", field, 1))
                                .call(() -> counters.incr(soldBy(instance)))
                                .replaceWith(true));
    }

    /** Forgets every booking, for a new round. */
    Uni<Void> reset(int instances) {
        List<String> all = IntStream.rangeClosed(1, instances).mapToObj(Show::soldBy).toList();
        return keys.del(all.toArray(String[]::new)).chain(() -> keys.del("office:seats", "office:sales"))
                .replaceWithVoid();
    }

    /**
     * @return what was sold so far, read now
     */
    Uni<Progress> progress(int instances) {
        return salesPerSeat.hgetall("office:sales").flatMap(sales -> Uni.join().all(
                IntStream.rangeClosed(1, instances)
                        .mapToObj(i -> counters.get(soldBy(i)).map(sold -> sold == null ? 0L : sold))
                        .toList())
                .andFailFast().map(perInstance -> Progress.of(sales, perInstance)));
    }

    private static String soldBy(int instance) {
        return "office:sold:" + instance;
    }

    /**
     * Sales so far.
     *
     * @param seatsTaken seats with a booking
     * @param tickets tickets sold (more than seats taken when seats were sold twice)
     * @param perInstance tickets sold by each instance
     */
    record Progress(int seatsTaken, long tickets, List<Long> perInstance) {

        static Progress of(Map<String, Long> salesPerSeat, List<Long> perInstance) {
            return new Progress(salesPerSeat.size(), salesPerSeat.values().stream().mapToLong(Long::longValue).sum(),
                    perInstance);
        }

        long doubleBookings() {
            return tickets - seatsTaken;
        }
    }
}
