export type { Broadcast } from './broadcast.ts';
export { createBroadcast } from './create-broadcast.ts';
export { LocalBroadcast } from './local-broadcast.ts';
export { PostgresBroadcast } from './postgres-broadcast.ts';
