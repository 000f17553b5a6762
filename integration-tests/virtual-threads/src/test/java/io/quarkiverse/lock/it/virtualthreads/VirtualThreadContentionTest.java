package io.quarkiverse.lock.it.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.RedisServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * 200 virtual threads contend on 4 locks of the Redis store: through a {@code @Locked} method they call, through the
 * blocking view, and as the virtual threads of a {@code @RunOnVirtualThread} REST endpoint that is itself
 * {@code @Locked}. Every section is counted exactly once, none overlaps another of its lock, and no virtual thread is
 * pinned to its carrier while it waits (no {@code jdk.VirtualThreadPinned} event with the locks' code or the sections
 * on its stack in a flight recording of the run; class loading pins, once per class and JVM, and so does the test's
 * own HTTP client, so neither counts, and a first section on each path loads most classes before the recording).
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class VirtualThreadContentionTest {

    private static final int THREADS = 200;
    private static final int SECTIONS_EACH = 4;

    @Inject
    GuardedSections sections;

    @Inject
    LockRegistry registry;

    @TestHTTPResource("/sections")
    URL endpoint;

    @BeforeEach
    void reset() {
        sections.tally().reset();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void lockedMethodsCalledFromVirtualThreads() throws Exception {
        assertContended(slot -> sections.section(slot));
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theBlockingViewOnVirtualThreads() throws Exception {
        assertContended(slot -> {
            DistributedLock lock = registry.obtain("vt-" + slot).toBlocking();
            assertThat(lock.acquire(Duration.ofSeconds(60))).as("acquired within the wait").isTrue();
            try {
                sections.tally().section(slot);
            } finally {
                assertThat(lock.release()).as("released").isTrue();
            }
        });
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void lockedEndpointsOnVirtualThreads() throws Exception {
        ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();
        try (HttpClient client = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor())
                .connectTimeout(Duration.ofSeconds(10)).build()) {
            assertContended(slot -> {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder()
                        .uri(URI.create(endpoint + "/" + slot)).timeout(Duration.ofSeconds(90))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as("answer to a section of slot %d: %s", slot, response.body())
                        .isEqualTo(200);
                threads.add(response.body());
            });
        }
        assertThat(threads).as("the thread each endpoint call ran on").hasSize(THREADS * SECTIONS_EACH + 1)
                .containsOnly("virtual");
    }

    /**
     * Runs {@value #THREADS} virtual threads, each running {@value #SECTIONS_EACH} sections, spread over the slots,
     * while recording pinned virtual threads.
     */
    private void assertContended(Section section) throws Exception {
        warmUp(section);
        List<String> pinned;
        try (PinnedThreadRecording recording = new PinnedThreadRecording()) {
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> done = new ArrayList<>();
                for (int thread = 0; thread < THREADS; thread++) {
                    int first = thread;
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < SECTIONS_EACH; i++) {
                            section.run((first + i) % GuardedSections.SLOTS);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : done) {
                    future.get(150, TimeUnit.SECONDS);
                }
            }
            pinned = recording.pinnedEvents("io.quarkiverse.lock.", VirtualThreadContentionTest.class);
        }
        assertThat(sections.tally().total()).as("sections counted").isEqualTo(THREADS * SECTIONS_EACH);
        assertThat(sections.tally().mostAtOnce()).as("most sections of one lock at once").isEqualTo(1);
        assertThat(pinned).as("virtual threads pinned to their carrier in the locks' code or the sections").isEmpty();
    }

    /**
     * Runs one section on a virtual thread before the recording: the first use of a path loads and links its classes,
     * which pins the virtual thread doing it (class loading runs native frames), once per JVM, not per wait.
     */
    private void warmUp(Section section) throws Exception {
        try (ExecutorService thread = Executors.newVirtualThreadPerTaskExecutor()) {
            thread.submit(() -> {
                section.run(0);
                return null;
            }).get(60, TimeUnit.SECONDS);
        }
        sections.tally().reset();
    }

    /** One section of a slot, run on a virtual thread. */
    @FunctionalInterface
    private interface Section {

        void run(int slot) throws Exception;
    }
}
