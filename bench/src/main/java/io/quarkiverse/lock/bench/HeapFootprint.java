package io.quarkiverse.lock.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap used after full collections, to see what holding many locks costs and what stays after their release.
 */
final class HeapFootprint {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapFootprint() {
    }

    static long usedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
