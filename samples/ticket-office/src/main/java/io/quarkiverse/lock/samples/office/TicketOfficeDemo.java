package io.quarkiverse.lock.samples.office;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.mutiny.Uni;

/**
 * A ticket office run as several instances on one Redis. Without arguments it starts the instances itself (as
 * separate JVMs of this same application), once without a lock and once with a lock per seat, and prints live
 * progress read from Redis: tickets sold per instance, seats taken, seats sold twice. With {@code --sell <n> <instances>
 * <locked>} it is one of those instances.
 */
@QuarkusMain
public class TicketOfficeDemo implements QuarkusApplication {

    static final int INSTANCES = 3;
    static final int CUSTOMERS_PER_INSTANCE = 150;

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveRedisDataSource redis;

    @Override
    public int run(String... args) throws Exception {
        if (args.length > 0 && args[0].equals("--sell")) {
            return sell(Integer.parseInt(args[1]), Boolean.parseBoolean(args[3]));
        }
        int instances = args.length > 1 && args[0].equals("--instances") ? Integer.parseInt(args[1]) : INSTANCES;
        System.out.printf("Quarkus Lock ticket office: %d instances on one Redis, %d customers each, %d seats%n",
                instances, CUSTOMERS_PER_INSTANCE, Show.SEATS);
        Show.Progress unlocked = round(instances, false);
        Show.Progress locked = round(instances, true);
        boolean correct = locked.doubleBookings() == 0 && locked.seatsTaken() == locked.tickets();
        System.out.println(correct
                ? "With a lock per seat no seat was sold twice, across " + instances + " instances."
                : "UNEXPECTED: seats were sold twice with the lock.");
        return correct && unlocked.tickets() > 0 ? 0 : 1;
    }

    private Show.Progress round(int instances, boolean locked) throws IOException, InterruptedException {
        Show show = new Show(redis);
        show.reset(instances).await().atMost(Duration.ofSeconds(10));
        System.out.println(locked ? "Round 2: with a lock per seat" : "Round 1: without a lock");
        List<Process> sellers = new ArrayList<>();
        for (int i = 1; i <= instances; i++) {
            sellers.add(startInstance(i, instances, locked));
        }
        Show.Progress progress;
        do {
            TimeUnit.MILLISECONDS.sleep(250);
            progress = show.progress(instances).await().atMost(Duration.ofSeconds(10));
            print(progress);
        } while (sellers.stream().anyMatch(Process::isAlive));
        for (Process seller : sellers) {
            if (seller.exitValue() != 0) {
                throw new IllegalStateException("an instance failed with exit code " + seller.exitValue());
            }
        }
        progress = show.progress(instances).await().atMost(Duration.ofSeconds(10));
        print(progress);
        System.out.println();
        return progress;
    }

    private static void print(Show.Progress progress) {
        StringBuilder perInstance = new StringBuilder();
        for (int i = 0; i < progress.perInstance().size(); i++) {
            perInstance.append(String.format(" instance-%d: %3d", i + 1, progress.perInstance().get(i)));
        }
        System.out.printf("\r  %3d tickets for %3d/%d seats, %3d sold twice |%s", progress.tickets(),
                progress.seatsTaken(), Show.SEATS, progress.doubleBookings(), perInstance);
        System.out.flush();
    }

    private static Process startInstance(int instance, int instances, boolean locked) throws IOException {
        ProcessHandle.Info self = ProcessHandle.current().info();
        List<String> command = new ArrayList<>();
        command.add(self.command().orElse("java"));
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("quarkus."))
                .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
        command.add("-jar");
        command.add(new java.io.File(TicketOfficeDemo.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath()).getParentFile().getParentFile().toPath().resolve("quarkus-run.jar").toString());
        command.addAll(List.of("--sell", Integer.toString(instance), Integer.toString(instances),
                Boolean.toString(locked)));
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** One instance: each of its customers tries one seat, picked at random, all at once. */
    private int sell(int instance, boolean locked) {
        Show show = new Show(redis);
        List<Uni<Boolean>> customers = new ArrayList<>();
        for (int c = 0; c < CUSTOMERS_PER_INSTANCE; c++) {
            String customer = "customer-" + instance + "-" + c;
            int seat = ThreadLocalRandom.current().nextInt(Show.SEATS);
            Uni<Boolean> booking = show.book(seat, customer, instance);
            customers.add(locked
                    ? locks.obtain("office-seat-" + seat).withMetricsName("office-seat")
                            .acquireAndExecute(Duration.ofSeconds(30), booking)
                            .onFailure(CannotAcquireLockException.class).recoverWithItem(false)
                    : booking);
        }
        Uni.join().all(customers).andFailFast().await().atMost(Duration.ofMinutes(2));
        return 0;
    }
}
