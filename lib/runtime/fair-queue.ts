/**
 * A queue of per-owner sub-queues served round-robin: each owner (an organization) waits behind at
 * most one item of every other owner, and a full sub-queue refuses only its own owner's items. With
 * one owner it is a plain bounded FIFO.
 */
export class FairQueue<T> {
  /** Owners in serving order; an owner is appended when its sub-queue becomes non-empty. */
  private readonly owners: string[] = [];
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  constructor(private readonly limits: { perOwner: number; total: number }) {}

  get length(): number {
    return this.count;
  }

  /** Adds an item for `owner`; false (nothing added) when that owner's sub-queue or the whole queue is full. */
  push(owner: string, item: T): boolean {
    const queue = this.queues.get(owner) ?? [];
    if (queue.length >= this.limits.perOwner || this.count >= this.limits.total) return false;
    if (queue.length === 0) {
      this.queues.set(owner, queue);
      this.owners.push(owner);
    }
    queue.push(item);
    this.count++;
    return true;
  }

  /** The item `shift` would return, left in place. */
  peek(): T | undefined {
    const owner = this.owners[0];
    return owner === undefined ? undefined : this.queues.get(owner)![0];
  }

  /** The next item: the oldest of the owner whose turn it is; that owner then goes to the back of the line. */
  shift(): T | undefined {
    const owner = this.owners.shift();
    if (owner === undefined) return undefined;
    const queue = this.queues.get(owner)!;
    const item = queue.shift()!;
    this.count--;
    if (queue.length > 0) this.owners.push(owner);
    else this.queues.delete(owner);
    return item;
  }

  /** Removes and returns every item (shutdown). */
  drain(): T[] {
    const items: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) items.push(item);
    return items;
  }
}
