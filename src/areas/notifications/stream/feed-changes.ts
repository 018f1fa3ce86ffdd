/** What the feed's writers tell the live streams: an owner's feed changed (sent once the transaction commits). */
export interface FeedChanges {
  changed(ownerId: string): Promise<void>;
}
