package io.quarkiverse.lock.it.virtualthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A flight recording of the JDK's {@code jdk.VirtualThreadPinned} events, however short: each time a virtual thread
 * blocked while it could not leave its carrier thread (a park inside a native frame, or, before Java 24, inside a
 * {@code synchronized} block), which would hold that carrier from the other virtual threads.
 */
final class PinnedThreadRecording implements AutoCloseable {

    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final String LOAD_CLASS = "loadClass";

    private final Recording recording = new Recording();

    PinnedThreadRecording() {
        recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
        recording.start();
    }

    /**
     * Stops the recording.
     *
     * @param packagePrefix the code whose pins count: a pinned event counts if a frame of its stack is in a class
     *        whose name starts with it (the test's own HTTP client, loading its classes on first use, pins too)
     * @param except a class of that code whose frames do not count (the test itself, which runs the client)
     * @return each pinned event that counts, with the top of its stack; a pin while a class loader loads a class
     *         never counts: the JVM loads each class once, on whichever thread first needs it, so it pins once per
     *         class and JVM, never for a wait
     */
    List<String> pinnedEvents(String packagePrefix, Class<?> except) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("pinned", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(event -> event.getEventType().getName().equals(PINNED))
                    .filter(event -> event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                            .map(frame -> frame.getMethod().getType().getName())
                            .anyMatch(type -> type.startsWith(packagePrefix) && !type.startsWith(except.getName())))
                    .filter(event -> !loadingAClass(event))
                    .map(PinnedThreadRecording::describe).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static boolean loadingAClass(RecordedEvent event) {
        return event.getStackTrace().getFrames().stream().anyMatch(frame -> frame.getMethod().getName().equals(LOAD_CLASS)
                && frame.getMethod().getType().getName().endsWith("ClassLoader"));
    }

    private static String describe(RecordedEvent event) {
        StringBuilder text = new StringBuilder("pinned for ").append(event.getDuration().toNanos()).append(" ns");
        for (RecordedFrame frame : event.getStackTrace().getFrames().stream().limit(16).toList()) {
            text.append("\n    at ").append(frame.getMethod().getType().getName()).append('.')
                    .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber());
        }
        return text.toString();
    }

    @Override
    public void close() {
        recording.close();
    }
}
