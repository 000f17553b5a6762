package io.quarkiverse.lock.reliability;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.smallrye.mutiny.Multi;

/**
 * The {@code lead} role: joins group {@value #GROUP} and logs, to a file of its own, every moment it believes it leads,
 * by polling {@code term()} every millisecond, with times of {@link System#nanoTime()} (CLOCK_MONOTONIC on Linux, one
 * clock for every process of the machine):
 * <ul>
 * <li>{@code B <term> <nanos>}: a term began; taken after the poll that first saw it, so the belief began before;</li>
 * <li>{@code E <term> <nanos>}: a term ended; the time is taken before the last poll that saw it, so the belief lasted
 * at least until then (a process killed while it leads writes none);</li>
 * <li>{@code X <term> <nanos>}: the term's end was told to an observer, after the belief ended;</li>
 * <li>{@code W <term> <nanos>}: the work guarded by the term (a stream of ticks) ticked for the first time;</li>
 * <li>{@code C <term> <nanos>}: the work guarded by the term was cancelled, when it learnt it;</li>
 * <li>{@code F <term> <nanos> <failure>}: the guarded work failed otherwise, and {@code S 0 <nanos> <failure>}: the
 * stream of changes failed (neither is expected).</li>
 * </ul>
 * Each line is written with one {@code write} call, so it survives a {@code kill -9}.
 */
@ApplicationScoped
public class LeaderLog {

    /** The group the harness declares. */
    public static final String GROUP = "harness";

    @Inject
    Leadership leadership;

    private volatile FileOutputStream out;

    /**
     * Joins, and logs from a thread of its own until the process ends.
     *
     * @param file where to log
     */
    public void lead(String file) throws IOException {
        out = new FileOutputStream(file, true);
        LeadershipGroup group = leadership.group(GROUP);
        group.changes().select().where(change -> change instanceof LeaderElected).subscribe().with(elected -> group
                .whileLeadingMany(Multi.createFrom().ticks().every(Duration.ofMillis(10)))
                .subscribe().with(tick -> {
                    if (tick == 0) {
                        write("W " + elected.term() + " " + System.nanoTime());
                    }
                }, failure -> {
                    if (failure instanceof NotLeaderException ended && ended.getEndedBy().isPresent()) {
                        write("C " + ended.getTerm() + " " + System.nanoTime());
                    } else {
                        write("F " + elected.term() + " " + System.nanoTime() + " " + failure);
                    }
                }), failure -> write("S 0 " + System.nanoTime() + " " + failure));
        group.join();
        Thread poller = new Thread(() -> poll(group), "leader-log");
        poller.setDaemon(true);
        poller.start();
        System.out.println("READY " + ProcessHandle.current().pid());
    }

    /**
     * Writes {@code X <term> <nanos>} when told a term ended, after its belief ended: the end of a term the poller had
     * no time to see end (at shutdown, the process exits right after).
     */
    void ended(@Observes LeadershipEnded ended) {
        if (out != null) {
            write("X " + ended.term() + " " + System.nanoTime());
        }
    }

    private void poll(LeadershipGroup group) {
        long leading = 0;
        long lastSeen = 0;
        while (true) {
            long before = System.nanoTime();
            OptionalLong term = group.term();
            long after = System.nanoTime();
            if (term.isPresent() && term.getAsLong() == leading) {
                lastSeen = before;
            } else {
                if (leading != 0) {
                    write("E " + leading + " " + lastSeen);
                }
                leading = term.orElse(0);
                if (leading != 0) {
                    write("B " + leading + " " + after);
                    lastSeen = before;
                }
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void write(String line) {
        try {
            synchronized (out) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
