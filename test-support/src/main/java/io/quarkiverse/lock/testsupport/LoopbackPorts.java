package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on the loopback interface, for the servers the tests start. */
final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /**
     * @return a port nobody listens on now, on 127.0.0.1
     * @throws IOException if no port could be bound
     */
    static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
