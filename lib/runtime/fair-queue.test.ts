import { describe, expect, it } from "vitest";
import { FairQueue } from "./fair-queue";

describe("FairQueue", () => {
  it("serves owners in turn, so a late owner waits behind one item of the busy one, not all of them", () => {
    const queue = new FairQueue<string>({ perOwner: 8, total: 64 });
    for (let i = 1; i <= 8; i++) expect(queue.push("busy-org", `busy-${i}`)).toBe(true);
    expect(queue.push("quiet-org", "quiet-1")).toBe(true);
    expect(queue.push("quiet-org", "quiet-2")).toBe(true);
    const served = queue.drain();
    expect(served.slice(0, 4)).toEqual(["busy-1", "quiet-1", "busy-2", "quiet-2"]);
    expect(served.slice(4)).toEqual(["busy-3", "busy-4", "busy-5", "busy-6", "busy-7", "busy-8"]);
    expect(queue.length).toBe(0);
  });

  it("refuses a full owner's items while another owner is still admitted", () => {
    const queue = new FairQueue<number>({ perOwner: 3, total: 64 });
    const admitted = Array.from({ length: 10 }, (_, i) => queue.push("flooding-org", i));
    expect(admitted.filter(Boolean)).toHaveLength(3);
    expect(queue.push("other-org", 100)).toBe(true);
    expect(queue.length).toBe(4);
    // the other organization's item is the second served, whatever the flood
    queue.shift();
    expect(queue.shift()).toBe(100);
  });

  it("keeps a total bound over all owners, and with one owner is a plain bounded FIFO", () => {
    const queue = new FairQueue<number>({ perOwner: 10, total: 5 });
    expect(Array.from({ length: 7 }, (_, i) => queue.push("", i)).filter(Boolean)).toHaveLength(5);
    expect(queue.push("someone-else", 99)).toBe(false);
    expect(queue.drain()).toEqual([0, 1, 2, 3, 4]);
    // an owner that emptied its sub-queue starts over at the back of the line
    queue.push("a", 1);
    queue.push("b", 2);
    expect(queue.shift()).toBe(1);
    queue.push("a", 3);
    expect(queue.drain()).toEqual([2, 3]);
  });
});
