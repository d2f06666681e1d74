package io.github.kcrawler.common.service;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

import java.util.List;
import java.util.Map;

/**
 * The error handlers of every crawler Streams service (set by {@link StreamsDefaults}), one class for the three
 * places Kafka Streams 4.4 lets a handler answer with dead-letter records (KIP-1033, KIP-1034):
 * <ul>
 *   <li>processing — an exception from a processor's {@code process()} or from a punctuator: a dead letter and
 *       RESUME, unless the failure is the infrastructure's ({@link DeadLetters#transientFailure}), then FAIL, and
 *       {@link StreamThreadFailures} replaces the thread (bounded);</li>
 *   <li>deserialization — a key or value the source's deserializer refused (ours decode leniently and count bad
 *       records themselves, so this is a safety net): a dead letter and RESUME;</li>
 *   <li>production — an output record that cannot be serialized, or that the broker refuses for itself (too large,
 *       invalid): a dead letter of the input that produced it and RESUME; a retriable send error: RETRY; anything
 *       else, or a dead letter that cannot be written itself: FAIL (never a loop of letters about letters).</li>
 * </ul>
 * Failures outside these paths (a store's restore, a commit, an {@code Error}) still reach the uncaught-exception
 * handler, {@link StreamThreadFailures}.
 */
public final class DeadLetterHandler implements ProcessingExceptionHandler, DeserializationExceptionHandler,
        ProductionExceptionHandler {
    private DeadLetters letters;

    @Override
    public void configure(Map<String, ?> configs) {
        letters = DeadLetters.from(configs);
    }

    @Override
    public ProcessingExceptionHandler.Response handleError(ErrorHandlerContext context, Record<?, ?> record,
                                                           Exception exception) {
        if (DeadLetters.transientFailure(exception)) {
            return ProcessingExceptionHandler.Response.fail();
        }
        return ProcessingExceptionHandler.Response.resume(List.of(letters.letter(context, context.sourceRawKey(),
                context.sourceRawValue(), exception)));
    }

    @Override
    public DeserializationExceptionHandler.Response handleError(ErrorHandlerContext context,
                                                                ConsumerRecord<byte[], byte[]> record,
                                                                Exception exception) {
        return DeserializationExceptionHandler.Response.resume(List.of(
                letters.letter(context, record.key(), record.value(), exception)));
    }

    @Override
    public ProductionExceptionHandler.Response handleError(ErrorHandlerContext context,
                                                           ProducerRecord<byte[], byte[]> record,
                                                           Exception exception) {
        if (letters.topic().equals(record.topic())) {
            return ProductionExceptionHandler.Response.fail();
        }
        if (exception instanceof RetriableException) {
            return ProductionExceptionHandler.Response.retry();
        }
        if (DeadLetters.transientFailure(exception)) {
            return ProductionExceptionHandler.Response.fail();
        }
        return ProductionExceptionHandler.Response.resume(List.of(sourceLetter(context, record.key(), exception)));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ProductionExceptionHandler.Response handleSerializationError(ErrorHandlerContext context,
                                                                        ProducerRecord record, Exception exception,
                                                                        SerializationExceptionOrigin origin) {
        if (letters.topic().equals(record.topic())) {
            return ProductionExceptionHandler.Response.fail();
        }
        return ProductionExceptionHandler.Response.resume(List.of(sourceLetter(context, null, exception)));
    }

    /** The letter of the input record behind a failed output: its raw bytes when Streams still has them. */
    private ProducerRecord<byte[], byte[]> sourceLetter(ErrorHandlerContext context, byte[] fallbackKey,
                                                        Exception exception) {
        byte[] key = context == null ? null : context.sourceRawKey();
        byte[] value = context == null ? null : context.sourceRawValue();
        return letters.letter(context, key != null ? key : fallbackKey, value, exception);
    }
}
