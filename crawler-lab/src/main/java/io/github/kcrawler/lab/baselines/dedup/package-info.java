/**
 * Baselines of the dedup-service that only an experiment still runs, kept out of the product (issue 24):
 * {@code ExactUrlSeen}, the exact set alone, against which {@code bench url-seen} measures paper 000's tiers.
 */
package io.github.kcrawler.lab.baselines.dedup;
