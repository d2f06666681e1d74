package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Writes one transaction marker — commit or abort — on one partition, with the request a transaction coordinator
 * sends to a partition's leader ({@code WriteTxnMarkers}). The Admin API writes only abort markers
 * ({@code Admin#abortTransaction}, KIP-664); a committed transaction whose commit marker a restarted coordinator
 * skipped needs a commit marker, or its records are lost while the offsets committed with them stand.
 *
 * <p>One blocking connection to the embedded broker's client listener, SASL/PLAIN when it has one (the broker
 * authorises the request as a cluster action; with no authoriser configured, as here, any client may send it). The
 * leader checks the marker like the coordinator's own: an epoch older than the producer's or a coordinator epoch
 * older than the partition's last marker is refused ({@code INVALID_PRODUCER_EPOCH},
 * {@code TRANSACTION_COORDINATOR_FENCED}), so a marker never closes a newer transaction.
 */
final class TxnMarkerWriter implements AutoCloseable {
    private static final String CLIENT_ID = "kcrawler-hanging-transaction-check";
    /** Bound on a response's size; a WriteTxnMarkers or SASL answer is a few hundred bytes. */
    private static final int MAX_RESPONSE_BYTES = 1 << 20;

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int correlationId;

    TxnMarkerWriter(String host, int port, EmbeddedKafkaConfig.SaslPlain sasl, Duration timeout) throws IOException {
        socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
            if (sasl != null) {
                authenticate(sasl);
            }
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Writes the marker that ends {@code producerId}'s transaction on {@code partition}.
     *
     * @throws KafkaException with the leader's error when it refuses the marker
     */
    void write(TopicPartition partition, long producerId, short producerEpoch, int coordinatorEpoch, boolean commit)
            throws IOException {
        WriteTxnMarkersRequestData.WritableTxnMarker marker = new WriteTxnMarkersRequestData.WritableTxnMarker()
                .setProducerId(producerId)
                .setProducerEpoch(producerEpoch)
                .setCoordinatorEpoch(coordinatorEpoch)
                .setTransactionResult(commit)
                .setTopics(List.of(new WriteTxnMarkersRequestData.WritableTxnMarkerTopic()
                        .setName(partition.topic()).setPartitionIndexes(List.of(partition.partition()))));
        WriteTxnMarkersResponse response = (WriteTxnMarkersResponse) send(
                new WriteTxnMarkersRequest.Builder(new WriteTxnMarkersRequestData().setMarkers(List.of(marker))));
        Errors error = response.errorsByProducerId().getOrDefault(producerId, Map.of())
                .getOrDefault(partition, Errors.UNKNOWN_SERVER_ERROR);
        if (error != Errors.NONE) {
            throw error.exception((commit ? "commit" : "abort") + " marker on " + partition + " refused");
        }
    }

    private void authenticate(EmbeddedKafkaConfig.SaslPlain sasl) throws IOException {
        SaslHandshakeResponse handshake = (SaslHandshakeResponse) send(
                new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")));
        if (handshake.error() != Errors.NONE) {
            throw handshake.error().exception("SASL handshake refused");
        }
        byte[] token = ("\0" + sasl.user() + "\0" + sasl.password()).getBytes(StandardCharsets.UTF_8);
        SaslAuthenticateResponse auth = (SaslAuthenticateResponse) send(
                new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token)));
        if (auth.error() != Errors.NONE) {
            throw auth.error().exception("SASL authentication refused: " + auth.errorMessage());
        }
    }

    /** One request and its response, each framed by its 4-byte size as on every Kafka connection. */
    private AbstractResponse send(AbstractRequest.Builder<?> builder) throws IOException {
        short version = builder.latestAllowedVersion();
        RequestHeader header = new RequestHeader(builder.apiKey(), version, CLIENT_ID, ++correlationId);
        ByteBuffer request = builder.build(version).serializeWithHeader(header);
        byte[] bytes = new byte[request.remaining()];
        request.get(bytes);
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
        int size = in.readInt();
        if (size < 0 || size > MAX_RESPONSE_BYTES) {
            throw new IOException("response of " + size + " bytes to " + builder.apiKey());
        }
        byte[] response = new byte[size];
        in.readFully(response);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
