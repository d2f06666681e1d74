/**
 * The O(1) politeness scheduler of paper 004 (Morimoto, Ueda, Uchida, Yamana, "An O(1) time complexity web crawling
 * scheduler with guarantee of minimum interval of accesses to a web server", {@code
 * ../shared/seeds/004_4207424cc682bc95.txt} §3.1–3.3, Algorithms 1–3; DESIGN §4.5, with its corrections):
 * {@code PolitenessWheel}, H residues and B FIFO queues that place a URL on a step of its residue's parity or drop it
 * when the residue has no free step; {@code StepPacer}, when the next step may be taken and the {@code notBefore} its
 * requests carry, with its parameters {@code Pacing} (the paper's discipline, or our pipelined one: steps of
 * ⌈T/2⌉ with several in flight). Our bounded priority front, from which the best-scored URLs enter the wheel first,
 * is {@code scheduler.politeness.PriorityFront}.
 *
 * <p>Invariants the classes state and their tests check after every operation: {@code N[r] ≡ r (mod 2)}, so one
 * residue (hence one IP) never appears in two consecutive steps and at most once per step; a residue's pending items
 * lie in {@code (t, t+B]}, a queue holds at most H/2 items and the wheel at most B·H/2, whatever the size of the web;
 * a wheel restored by re-enqueueing its pending items in step order reproduces the state exactly; consecutive steps'
 * {@code notBefore} are at least a step apart, so two requests of one residue are at least T apart, and at most k
 * steps' batches are outstanding. Every operation is O(1) on primitive arrays, with no allocation per URL once warm; one
 * instance per stream task.
 *
 * <p>No Kafka, no RocksDB: the package imports neither (crawler-lab's {@code LayeringTest} enforces it); the
 * frontiers over the wheel are in {@code scheduler.politeness}.
 */
package io.github.kcrawler.scheduler.wheel;
